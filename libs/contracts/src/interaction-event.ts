import { randomUUID } from 'node:crypto';
import { chDateTime, chDateTimeOften } from './ch-time';
import { eventObject, lengthProblem, personalHash, sessionTextAndTime, tenantAndId } from './event-fields';
import { searchIdOf } from './ids';
import type { EventSource, ItemOrigin } from './item-origin';
import type { EventRules } from './search-event';
import { echoedName } from './text';

export type InteractionType = 'click' | 'conversion';
export type ConversionSubtype = 'addToCart' | 'purchase';

/**
 * A click or a conversion as server-side producers send it: an item of POST /events or a message on the search
 * events topic with `type` `click` or `conversion` (docs/decisions/0049-interaction-events.md). Over
 * HTTP customer and instance come from the authenticated request; on Kafka both are required.
 */
export interface InteractionEvent {
  type: InteractionType;
  id?: string;
  customer?: string;
  instance?: string;
  ts?: string | number;
  /** The `id` of the search the shopper acted on; required for a click. */
  searchId?: string;
  objectId: string;
  /** Clicks: the position of the object in the results, the first is 1. */
  position?: number;
  /** Conversions only. */
  subtype?: ConversionSubtype;
  value?: number;
  currency?: string;
  sessionId?: string;
  userToken?: string;
}

/**
 * A row of `interactions`. Absent values are stored as empty values: `search_id` NO_SEARCH_ID, `position` 0, `subtype` '',
 * `value` 0, `currency` ''. The session id and user token are kept only as hashes.
 */
export interface InteractionRow {
  /** The event's `id`, canonical (lower-case, dashed); generated when absent. */
  interaction_id: string;
  customer: string;
  instance: string;
  ts: string;
  type: InteractionType;
  /** The canonical search id, or NO_SEARCH_ID (a conversion without `searchId`). */
  search_id: string;
  object_id: string;
  position: number;
  subtype: ConversionSubtype | '';
  /** Rounded to 6 decimals. */
  value: number;
  /** Upper-case ISO 4217 code, or ''. */
  currency: string;
  session_hash: string;
  user_token_hash: string;
  source: EventSource;
  topic: string;
  partition: number;
  offset: number;
  received_at: string;
  /** POST /events on the embedded transport: the request's retry token; else ''. */
  intake_token?: string;
  /** Where the interaction came from: 'events' (POST /events, the Kafka topic) or 'insights' (POST /1/events). */
  origin?: string;
  /** Insights: the place of the object among the event's objectIDs (0 for native items). */
  object_index?: number;
  /** Insights: `eventName`, `index` and `filters` as sent (empty for native items). */
  event_name?: string;
  index_name?: string;
  filters?: string[];
}

/** The `search_id` of an interaction that names no search (a conversion without `searchId`). */
export const NO_SEARCH_ID = '00000000-0000-0000-0000-000000000000';

export type ValidatedInteraction = { ok: true; row: InteractionRow } | { ok: false; reason: string };

/** Longest `objectId`, in characters (code points). */
export const MAX_OBJECT_ID_LENGTH = 200;
/** Largest `position` (a result further down is not a position a shopper reaches). */
export const MAX_POSITION = 65_535;
/** `value` must be below this (the stored decimal has 12 digits before the point and 6 after). */
export const VALUE_LIMIT = 1e12;
/** Decimals kept of a `value`. */
export const VALUE_DECIMALS = 6;
/** Longest `userToken` accepted, in UTF-16 units. */
export const MAX_USER_TOKEN_LENGTH = 200;
export const INTERACTION_TYPES: readonly InteractionType[] = ['click', 'conversion'];
export const CONVERSION_SUBTYPES: readonly ConversionSubtype[] = ['addToCart', 'purchase'];

const COMMON = ['type', 'id', 'customer', 'instance', 'ts', 'searchId', 'objectId', 'sessionId', 'userToken'];
const FIELDS: Record<InteractionType, ReadonlySet<string>> = {
  click: new Set([...COMMON, 'position']),
  conversion: new Set([...COMMON, 'subtype', 'value', 'currency']),
};
const ALL_FIELDS = new Set([...FIELDS.click, ...FIELDS.conversion]);
const CURRENCY = /^[a-z]{3}$/i;

const fail = (reason: string): ValidatedInteraction => ({ ok: false, reason });

/** The problem with the fields only one type has, naming the first one; undefined when there is none. */
function typeFieldsProblem(e: Record<string, unknown>, type: InteractionType): string | undefined {
  if (type === 'click') {
    if (typeof e.position !== 'number' || !Number.isInteger(e.position) || e.position < 1 || e.position > MAX_POSITION) {
      return `position must be an integer from 1 to ${MAX_POSITION}`;
    }
    return undefined;
  }
  if (e.subtype !== undefined && !CONVERSION_SUBTYPES.includes(e.subtype as ConversionSubtype)) {
    return 'subtype must be addToCart or purchase';
  }
  if (e.value !== undefined && (typeof e.value !== 'number' || !Number.isFinite(e.value) || e.value < 0 || e.value >= VALUE_LIMIT)) {
    return 'value must be a number >= 0 and below 1e12';
  }
  const currency = currencyProblem(e.currency);
  if (currency !== undefined) {
    return currency;
  }
  if (e.value !== undefined && e.currency === undefined) {
    return 'currency is required with value (three letters, e.g. EUR)';
  }
  return undefined;
}

/** The problem with a `currency` (three letters, any case), else undefined; shared with the Insights events. */
export function currencyProblem(value: unknown): string | undefined {
  return value !== undefined && (typeof value !== 'string' || !CURRENCY.test(value))
    ? 'currency must be three letters (ISO 4217, e.g. EUR)'
    : undefined;
}

/** The problem with a user token named `field` (a string of 1 to MAX_USER_TOKEN_LENGTH), else undefined. */
export function userTokenProblem(field: string, value: unknown): string | undefined {
  return value !== undefined && (typeof value !== 'string' || value.length === 0 || value.length > MAX_USER_TOKEN_LENGTH)
    ? `${field} must be a string of 1 to ${MAX_USER_TOKEN_LENGTH} characters`
    : undefined;
}

/**
 * Validates and normalises one click or conversion; the reason names the field. Never throws. Ids (`id`,
 * `searchId`) are stored canonical, so a search id written with or without dashes, in any case, is the same.
 */
export function validateInteraction(input: unknown, ctx: ItemOrigin, rules: EventRules): ValidatedInteraction {
  const e = eventObject(input);
  if (e === undefined) {
    return fail('event must be a JSON object');
  }
  if (!INTERACTION_TYPES.includes(e.type as InteractionType)) {
    return fail('type must be click or conversion');
  }
  const type = e.type as InteractionType;
  for (const field of Object.keys(e)) {
    if (!FIELDS[type].has(field)) {
      return fail(ALL_FIELDS.has(field) ? `${field} is not a field of a ${type}` : `unknown field ${echoedName(field)}`);
    }
  }

  const head = tenantAndId(e, ctx);
  if (typeof head === 'string') {
    return fail(head);
  }
  const { customer, instance, id } = head;

  const searchId = searchIdOf('searchId', e.searchId);
  if (searchId === undefined && type === 'click') {
    return fail('searchId is required for a click (the id of the search)');
  }
  if (typeof searchId === 'object') {
    return fail(searchId.reason);
  }
  const objectProblem = lengthProblem('objectId', e.objectId, MAX_OBJECT_ID_LENGTH) ?? typeFieldsProblem(e, type);
  const ts =
    objectProblem ??
    userTokenProblem('userToken', e.userToken) ??
    sessionTextAndTime(e, ['objectId', 'sessionId', 'userToken'], ctx.now, rules.retentionDays);
  if (typeof ts === 'string') {
    return fail(ts);
  }

  return {
    ok: true,
    row: {
      interaction_id: id ?? randomUUID(),
      customer,
      instance,
      ts: chDateTime(ts),
      type,
      search_id: searchId ?? NO_SEARCH_ID,
      object_id: e.objectId as string,
      position: type === 'click' ? (e.position as number) : 0,
      subtype: (e.subtype as ConversionSubtype | undefined) ?? '',
      value: typeof e.value === 'number' ? Number(e.value.toFixed(VALUE_DECIMALS)) : 0,
      currency: typeof e.currency === 'string' ? e.currency.toUpperCase() : '',
      session_hash: personalHash(customer, e.sessionId),
      user_token_hash: personalHash(customer, e.userToken),
      source: ctx.source,
      topic: ctx.topic ?? '',
      partition: ctx.partition ?? -1,
      offset: ctx.offset ?? -1,
      received_at: chDateTimeOften(ctx.now),
    },
  };
}
