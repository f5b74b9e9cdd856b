import { eventObject, lengthProblem } from './event-fields';
import { searchIdOf } from './ids';
import { MAX_OBJECT_ID_LENGTH, MAX_POSITION, currencyProblem, VALUE_DECIMALS, VALUE_LIMIT } from './interaction-event';
import { textProblem } from './text';

// The objects of an event of the Insights protocol (POST /1/events): its `objectIDs` with their `positions` and
// `objectData`, or its `filters`; and the value a conversion takes from them. validateInsightsEvent
// (insights-event.ts) checks the event's other fields and makes its rows.

/** Most object ids (and filters) in one Insights event. */
export const MAX_INSIGHTS_OBJECTS = 20;
export const MAX_INSIGHTS_FILTERS = 10;
/** Longest filter, in UTF-16 units. */
export const MAX_FILTER_LENGTH = 512;

/** A number as a string ("59.90"): search-insights passes `value`, `price` and `discount` as the shop gives them. */
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A number, or a numeric string, as a number; undefined when it is neither (or not finite). */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

export function stringProblem(field: string, value: unknown, max: number): string | undefined {
  return lengthProblem(field, value, max) ?? textProblem(field, value as string);
}

export interface ObjectData {
  price?: number;
  quantity: number;
  discount: number;
  searchId?: string;
}

/** `objectData`: one entry per object id, with price, quantity, discount and queryID each checked. */
function objectDataOf(value: unknown, objects: number): ObjectData[] | string {
  if (!Array.isArray(value) || value.length !== objects) {
    return 'objectData must be an array of the same length as objectIDs';
  }
  const data: ObjectData[] = [];
  for (const [i, raw] of value.entries()) {
    const field = `objectData[${i}]`;
    const d = eventObject(raw);
    if (d === undefined) {
      return `${field} must be an object`;
    }
    const price = d.price === undefined ? undefined : numberOf(d.price);
    if (d.price !== undefined && (price === undefined || price < 0 || price >= VALUE_LIMIT)) {
      return `${field}.price must be a number >= 0 and below 1e12 (or such a number as a string)`;
    }
    const quantity = d.quantity ?? 1;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > 1e6) {
      return `${field}.quantity must be an integer from 1 to 1000000`;
    }
    const discount = d.discount === undefined ? 0 : numberOf(d.discount);
    if (discount === undefined || discount < 0 || discount >= VALUE_LIMIT) {
      return `${field}.discount must be a number >= 0 and below 1e12 (or such a number as a string)`;
    }
    const searchId = searchIdOf(`${field}.queryID`, d.queryID);
    if (typeof searchId === 'object') {
      return searchId.reason;
    }
    data.push({ price, quantity, discount, searchId });
  }
  return data;
}

/** Filters as stored: each URI-decoded (search-insights encodes them), as sent when it is not an escape. */
function filtersOf(value: unknown): string[] | string {
  const wrong = `filters must be an array of 1 to ${MAX_INSIGHTS_FILTERS} strings of 1 to ${MAX_FILTER_LENGTH} characters`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_INSIGHTS_FILTERS) {
    return wrong;
  }
  const filters: string[] = [];
  for (const f of value) {
    if (typeof f !== 'string' || f.length === 0 || f.length > MAX_FILTER_LENGTH) {
      return wrong;
    }
    let decoded = f;
    try {
      decoded = decodeURIComponent(f);
    } catch {
      // kept as sent
    }
    const problem = textProblem('filters', decoded);
    if (problem) {
      return problem;
    }
    filters.push(decoded);
  }
  return filters;
}

function objectIdsOf(value: unknown): string[] | string {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_INSIGHTS_OBJECTS) {
    return `objectIDs must be an array of 1 to ${MAX_INSIGHTS_OBJECTS} object ids`;
  }
  for (const id of value) {
    const problem = stringProblem('objectIDs', id, MAX_OBJECT_ID_LENGTH);
    if (problem) {
      return problem;
    }
  }
  return value as string[];
}

function positionsOf(value: unknown, objects: number): number[] | string {
  if (!Array.isArray(value) || value.length !== objects) {
    return 'positions must be an array of the same length as objectIDs';
  }
  const bad = value.findIndex((p) => typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > MAX_POSITION);
  return bad < 0 ? (value as number[]) : `positions[${bad}] must be an integer from 1 to ${MAX_POSITION}`;
}

export interface Conversion {
  value: number;
  currency: string;
}

/**
 * A conversion's value, counted once per event: `value`, else the sum of price x quantity - discount over its
 * objects that have a price; 0 without either. Currency is required when there is a value or a price.
 */
export function conversionOf(e: Record<string, unknown>, data: ObjectData[] | undefined): Conversion | string {
  const given = e.value === undefined ? undefined : numberOf(e.value);
  if (e.value !== undefined && (given === undefined || given < 0 || given >= VALUE_LIMIT)) {
    return 'value must be a number >= 0 and below 1e12 (or such a number as a string)';
  }
  const currency = currencyProblem(e.currency);
  if (currency !== undefined) {
    return currency;
  }
  const priced = (data ?? []).filter((d) => d.price !== undefined);
  if ((given !== undefined || priced.length > 0) && e.currency === undefined) {
    return 'currency is required with value or objectData prices (three letters, e.g. EUR)';
  }
  const value = given ?? priced.reduce((sum, d) => sum + (d.price as number) * d.quantity - d.discount, 0);
  if (value < 0 || value >= VALUE_LIMIT) {
    return 'value from objectData (price x quantity - discount) must be >= 0 and below 1e12';
  }
  return { value: Number(value.toFixed(VALUE_DECIMALS)), currency: typeof e.currency === 'string' ? e.currency.toUpperCase() : '' };
}

export interface Objects {
  ids: string[];
  positions?: number[];
  data?: ObjectData[];
  filters: string[];
}

/** Either `objectIDs` (with their positions and data) or `filters`. */
export function objectsOf(e: Record<string, unknown>, searchId: string | undefined): Objects | string {
  if (e.objectIDs === undefined) {
    if (e.filters === undefined) {
      return 'objectIDs or filters is required';
    }
    const filters = filtersOf(e.filters);
    return typeof filters === 'string' ? filters : { ids: [''], filters };
  }
  if (e.filters !== undefined) {
    return 'objectIDs and filters cannot both be given';
  }
  const ids = objectIdsOf(e.objectIDs);
  if (typeof ids === 'string') {
    return ids;
  }
  const data = e.objectData === undefined ? undefined : objectDataOf(e.objectData, ids.length);
  if (typeof data === 'string') {
    return data;
  }
  let positions: number[] | string | undefined;
  if (e.positions !== undefined) {
    positions = e.eventType === 'click' ? positionsOf(e.positions, ids.length) : 'positions is only for clicks';
  } else if (e.eventType === 'click' && (searchId !== undefined || data?.some((d) => d.searchId !== undefined))) {
    // A click counted for a search counts its position; one without a position would be counted at 0.
    positions = 'positions is required for a click with queryID (or objectData[i].queryID)';
  }
  if (typeof positions === 'string') {
    return positions;
  }
  return { ids, positions, data, filters: [] };
}
