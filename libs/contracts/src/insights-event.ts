import { createHash, randomUUID } from 'node:crypto';
import { chDateTime, chDateTimeOften } from './ch-time';
import { eventObject, eventTime, personalHash } from './event-fields';
import { searchIdOf } from './ids';
import { conversionOf, objectsOf, stringProblem, type Conversion } from './insights-objects';
import { CONVERSION_SUBTYPES, userTokenProblem, NO_SEARCH_ID, type ConversionSubtype, type InteractionRow } from './interaction-event';
import type { ItemOrigin } from './item-origin';
import type { EventRules } from './search-event';

// The limits of an event's objects and filters live with the code that checks them (insights-objects.ts); they are
// exported here too, beside the event's other limits.
export { MAX_FILTER_LENGTH, MAX_INSIGHTS_FILTERS, MAX_INSIGHTS_OBJECTS } from './insights-objects';

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

/** Longest `eventName` and `index`, in UTF-16 units. */
export const MAX_EVENT_NAME_LENGTH = 64;
export const MAX_INDEX_NAME_LENGTH = 256;
export const INSIGHTS_EVENT_TYPES: readonly InsightsEventType[] = ['click', 'conversion', 'view'];

const fail = (reason: string): ValidatedInsightsEvent => ({ ok: false, reason });

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
