import { createHash, randomUUID } from 'node:crypto';
import { chDateTime, chDateTimeOften } from './ch-time';
import { eventObject, eventTime, lengthProblem, personalHash, tenantAndId } from './event-fields';
import { searchIdOf } from './ids';
import {
  CONVERSION_SUBTYPES,
  MAX_OBJECT_ID_LENGTH,
  MAX_POSITION,
  currencyProblem,
  userTokenProblem,
  NO_SEARCH_ID,
  VALUE_DECIMALS,
  VALUE_LIMIT,
  type ConversionSubtype,
  type InteractionRow,
} from './interaction-event';
import type { ItemOrigin } from './item-origin';
import type { EventRules } from './search-event';
import { echoedName, textProblem } from './text';

export type InsightsEventType = 'click' | 'conversion' | 'view';

/**
 * A row of `interactions` made from an event of the Insights protocol (POST /1/events): one per object id, or one
 * with `object_id` '' for an event with filters and no objects. A view is stored, never counted.
 */
export type InsightsRow = Omit<InteractionRow, 'type' | 'origin' | 'object_index' | 'event_name' | 'index_name' | 'filters'> & {
  type: InsightsEventType;
  origin: 'insights';
  object_index: number;
  event_name: string;
  index_name: string;
  filters: string[];
};

export type ValidatedInsightsEvent = { ok: true; rows: InsightsRow[] } | { ok: false; reason: string };

/** Most object ids (and filters) in one Insights event. */
export const MAX_INSIGHTS_OBJECTS = 20;
export const MAX_INSIGHTS_FILTERS = 10;
/** Longest `eventName`, `index` and filter, in UTF-16 units. */
export const MAX_EVENT_NAME_LENGTH = 64;
export const MAX_INDEX_NAME_LENGTH = 256;
export const MAX_FILTER_LENGTH = 512;
export const INSIGHTS_EVENT_TYPES: readonly InsightsEventType[] = ['click', 'conversion', 'view'];

/** A number as a string ("59.90"): search-insights passes `value`, `price` and `discount` as the shop gives them. */
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

const fail = (reason: string): ValidatedInsightsEvent => ({ ok: false, reason });

/** A number, or a numeric string, as a number; undefined when it is neither (or not finite). */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function stringProblem(field: string, value: unknown, max: number): string | undefined {
  return lengthProblem(field, value, max) ?? textProblem(field, value as string);
}

interface ObjectData {
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

/** The two user tokens: optional strings, kept only as hashes. */
function userTokensProblem(e: Record<string, unknown>): string | undefined {
  return userTokenProblem('userToken', e.userToken) ?? userTokenProblem('authenticatedUserToken', e.authenticatedUserToken);
}

/** The event's time in ms (its `timestamp`, epoch milliseconds, else the receive time), or the reason naming it. */
function timestampOf(value: unknown, ctx: ItemOrigin, rules: Pick<EventRules, 'retentionDays'>): number | string {
  if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)) {
    return 'timestamp must be epoch milliseconds (a positive integer)';
  }
  const ms = eventTime(value, ctx.now, rules.retentionDays);
  return typeof ms === 'string' ? ms.replace(/^ts /, 'timestamp ') : ms;
}

interface Conversion {
  value: number;
  currency: string;
}

/**
 * A conversion's value, counted once per event: `value`, else the sum of price x quantity - discount over its
 * objects that have a price; 0 without either. Currency is required when there is a value or a price.
 */
function conversionOf(e: Record<string, unknown>, data: ObjectData[] | undefined): Conversion | string {
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

/** The checks of the fields every event has: type, subtype, name, index, tokens. */
function headProblem(e: Record<string, unknown>): string | undefined {
  if (!INSIGHTS_EVENT_TYPES.includes(e.eventType as InsightsEventType)) {
    return 'eventType must be click, conversion or view';
  }
  if (e.eventSubtype !== undefined) {
    if (e.eventType !== 'conversion') {
      return 'eventSubtype is only for conversions';
    }
    if (!CONVERSION_SUBTYPES.includes(e.eventSubtype as ConversionSubtype)) {
      return 'eventSubtype must be addToCart or purchase';
    }
  }
  return (
    stringProblem('eventName', e.eventName, MAX_EVENT_NAME_LENGTH) ??
    stringProblem('index', e.index, MAX_INDEX_NAME_LENGTH) ??
    userTokensProblem(e)
  );
}

interface Objects {
  ids: string[];
  positions?: number[];
  data?: ObjectData[];
  filters: string[];
}

/** Either `objectIDs` (with their positions and data) or `filters`. */
function objectsOf(e: Record<string, unknown>, searchId: string | undefined): Objects | string {
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

/**
 * The `interaction_id` of the row of object `index` of an Insights event whose id is `eventId`: the event's id for
 * its first object, a UUID derived from both for the others, so every delivery of the event's Kafka message gives
 * its rows the same ids (a producer's retry is then recognised, RecentEventIds in the ingest app).
 */
export function insightsRowId(eventId: string, index: number): string {
  if (index === 0) {
    return eventId;
  }
  const hex = createHash('sha256').update(`${eventId}:${index}`).digest('hex');
  // A version 8 (custom) UUID, RFC 9562 variant.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Validates one event of the Insights protocol (POST /1/events) into its rows of `interactions`, or the reason of
 * its rejection, naming the field. Never throws. Unknown fields are ignored (search-insights adds some of its own);
 * `value`, `price` and `discount` may be numeric strings; a click or conversion without `queryID` is stored with
 * NO_SEARCH_ID (unattributed), and a per-object `objectData[i].queryID` wins over the event's. A conversion's value
 * is on its first row only, so it counts once per event. The user tokens are kept only as hashes: `user_token_hash`
 * of `authenticatedUserToken` when given, else of `userToken`, and `session_hash` of `userToken` when both are given.
 * `ctx` carries the customer and instance (authenticated, or of the Kafka message) and, from Kafka, the offset;
 * `ctx.now` is the receive time (the default timestamp). The rows' ids are `id` (canonical; drawn when absent) and
 * ids derived from it (insightsRowId).
 */
export function validateInsightsEvent(
  input: unknown,
  ctx: ItemOrigin,
  rules: Pick<EventRules, 'retentionDays'>,
  id: string = randomUUID(),
): ValidatedInsightsEvent {
  const e = eventObject(input);
  if (e === undefined) {
    return fail('event must be a JSON object');
  }
  const head = headProblem(e);
  if (head) {
    return fail(head);
  }
  const searchId = searchIdOf('queryID', e.queryID);
  if (typeof searchId === 'object') {
    return fail(searchId.reason);
  }
  const objects = objectsOf(e, searchId);
  if (typeof objects === 'string') {
    return fail(objects);
  }
  const conversion: Conversion | string = e.eventType === 'conversion' ? conversionOf(e, objects.data) : { value: 0, currency: '' };
  if (typeof conversion === 'string') {
    return fail(conversion);
  }
  const ts = timestampOf(e.timestamp, ctx, rules);
  if (typeof ts === 'string') {
    return fail(ts);
  }
  const customer = ctx.customer as string;
  const authenticated = typeof e.authenticatedUserToken === 'string';
  const userToken = authenticated ? e.authenticatedUserToken : e.userToken;
  const common = {
    customer,
    instance: ctx.instance as string,
    ts: chDateTime(ts),
    type: e.eventType as InsightsEventType,
    subtype: (e.eventSubtype as ConversionSubtype | undefined) ?? ('' as const),
    currency: conversion.currency,
    session_hash: authenticated ? personalHash(customer, e.userToken) : '',
    user_token_hash: personalHash(customer, userToken),
    source: ctx.source,
    topic: ctx.topic ?? '',
    partition: ctx.partition ?? -1,
    offset: ctx.offset ?? -1,
    received_at: chDateTimeOften(ctx.now),
    origin: 'insights' as const,
    event_name: e.eventName as string,
    index_name: e.index as string,
    filters: objects.filters,
  };
  return {
    ok: true,
    rows: objects.ids.map((objectId, i) => ({
      ...common,
      interaction_id: insightsRowId(id, i),
      search_id: objects.data?.[i].searchId ?? searchId ?? NO_SEARCH_ID,
      object_id: objectId,
      object_index: i,
      position: objects.positions?.[i] ?? 0,
      value: i === 0 ? conversion.value : 0,
    })),
  };
}

/** `type` of a message on the search events topic that carries an Insights event (InsightsMessage). */
export const INSIGHTS_MESSAGE_TYPE = 'insights';

/**
 * An event of POST /1/events as a message on the search events topic (docs/architecture.md, "Clicks and
 * conversions"): the query app on the Kafka transport writes one per event, and producers may write it too. All its
 * rows come from this one message (one offset): they are stored together or not at all.
 */
export interface InsightsMessage {
  type: typeof INSIGHTS_MESSAGE_TYPE;
  customer: string;
  instance: string;
  /** The event's id (the first row's `interaction_id`; the others derived, insightsRowId); drawn when absent. */
  id?: string;
  /** Epoch ms: when the event was received, its default timestamp; absent, the Kafka message's timestamp. */
  receivedAt?: number;
  /** The event as the client sent it. */
  event: unknown;
}

const MESSAGE_FIELDS = new Set(['type', 'customer', 'instance', 'id', 'receivedAt', 'event']);

/**
 * `receivedAt` (else the Kafka message's timestamp, else `ctx.now`) in ms, or the reason naming it: like a `ts`, at
 * most 5 minutes in the future and within the retention.
 */
function receivedAtOf(value: unknown, ctx: ItemOrigin, rules: Pick<EventRules, 'retentionDays'>): number | string {
  if (value === undefined) {
    const at = ctx.timestamp === undefined ? NaN : Number(ctx.timestamp);
    return Number.isFinite(at) && at > 0 ? at : ctx.now;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    return 'receivedAt must be epoch milliseconds (a positive integer)';
  }
  const ms = eventTime(value, ctx.now, rules.retentionDays);
  return typeof ms === 'string' ? ms.replace(/^ts /, 'receivedAt ') : ms;
}

/**
 * Validates an InsightsMessage read from Kafka into the rows POST /1/events stores for its event on the embedded
 * transport (validateInsightsEvent, with the message's tenant and its `receivedAt` as the receive time), so every
 * delivery of the message gives the same rows. The envelope is strict (an unknown field is refused, as on every
 * message); the event is read as the Insights protocol reads it (unknown fields ignored).
 */
export function validateInsightsMessage(input: unknown, ctx: ItemOrigin, rules: Pick<EventRules, 'retentionDays'>): ValidatedInsightsEvent {
  const m = eventObject(input);
  if (m === undefined) {
    return fail('event must be a JSON object');
  }
  for (const field of Object.keys(m)) {
    if (!MESSAGE_FIELDS.has(field)) {
      return fail(`unknown field ${echoedName(field)}`);
    }
  }
  const head = tenantAndId(m, ctx);
  if (typeof head === 'string') {
    return fail(head);
  }
  const { customer, instance, id } = head;
  const receivedAt = receivedAtOf(m.receivedAt, ctx, rules);
  if (typeof receivedAt === 'string') {
    return fail(receivedAt);
  }
  if (m.event === undefined) {
    return fail('event is required (the Insights event)');
  }
  const result = validateInsightsEvent(m.event, { ...ctx, customer, instance, now: receivedAt }, rules, id);
  return result.ok ? result : fail(`event: ${result.reason}`);
}
