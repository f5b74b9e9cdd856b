import { createHash } from 'node:crypto';
import { canonicalId, idProblem } from './ids';
import type { ItemOrigin } from './item-origin';
import { itemTenant } from './item-tenant';
import { textProblem } from './text';

/** Longest `sessionId` accepted, in UTF-16 units. */
export const MAX_SESSION_ID_LENGTH = 200;

/** Clock skew tolerated for producer timestamps. */
export const MAX_FUTURE_MS = 5 * 60 * 1000;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const TS_FORMAT = 'ts must be an ISO-8601 string or epoch milliseconds';

function parseTs(ts: unknown): number | string {
  if (typeof ts === 'number') {
    return Number.isInteger(ts) && ts > 0 ? ts : TS_FORMAT;
  }
  if (typeof ts === 'string' && ISO_8601.test(ts)) {
    const ms = Date.parse(ts);
    if (!Number.isNaN(ms)) {
      return ms;
    }
  }
  return TS_FORMAT;
}

/**
 * The time of an event (ms): its `ts` (ISO-8601 with an offset, or epoch milliseconds), else the receive time
 * `now`; the reason, naming `ts`, when it is malformed, more than 5 minutes in the future or outside the retention.
 * The same rules for every kind of event (docs/architecture.md, "The pipeline").
 */
export function eventTime(ts: unknown, now: number, retentionDays: number): number | string {
  const ms = ts === undefined ? now : parseTs(ts);
  if (typeof ms === 'string') {
    return ms;
  }
  if (ms > now + MAX_FUTURE_MS) {
    return 'ts is more than 5 minutes in the future';
  }
  if (ms < now - retentionDays * 86_400_000) {
    return `ts is older than the retention of ${retentionDays} days`;
  }
  return ms;
}

/** A shopper's identifier (a session id, a user token) as it is stored: a hash within the customer; '' when absent. */
export function personalHash(customer: string, value: unknown): string {
  return typeof value === 'string' ? createHash('sha256').update(`${customer}:${value}`).digest('hex') : '';
}

/** The fields of an event (or of a Kafka message's `event`) that name a shopper: kept only as their hash. */
const PERSONAL_FIELDS = ['sessionId', 'userToken', 'authenticatedUserToken'] as const;

/**
 * A rejected item as it is kept (rejected_events.raw): the same, but each personal field that is a string replaced
 * by `sha256:<its personalHash>`, at the top and in a Kafka message's `event`, so that no shopper's token is stored
 * as sent and DELETE /1/usertokens finds it. The same object when it has none.
 */
export function withHashedPersonalFields(customer: string, value: object): object {
  const record = value as Record<string, unknown>;
  const hashed = (r: Record<string, unknown>): Record<string, unknown> => {
    const found = PERSONAL_FIELDS.filter((f) => typeof r[f] === 'string');
    return found.length === 0 ? r : { ...r, ...Object.fromEntries(found.map((f) => [f, `sha256:${personalHash(customer, r[f])}`])) };
  };
  const inner = eventObject(record.event);
  const outer = hashed(record);
  if (inner === undefined || Array.isArray(value)) {
    return outer;
  }
  const event = hashed(inner);
  return event === inner ? outer : { ...outer, event };
}

/** A reason for a field that is not a string of 1 to `max` characters (code points), else undefined. */
export function lengthProblem(field: string, value: unknown, max: number): string | undefined {
  const wrong = `${field} must be a string of 1 to ${max} characters`;
  if (typeof value !== 'string' || value.length === 0) {
    return wrong;
  }
  // Characters (code points) are counted only where UTF-16 units could exceed the limit.
  return value.length > max && (value.length > max * 2 || [...value].length > max) ? wrong : undefined;
}

/** The body of an event as a record, or undefined when it is not a JSON object. */
export function eventObject(input: unknown): Record<string, unknown> | undefined {
  return typeof input !== 'object' || input === null || Array.isArray(input) ? undefined : (input as Record<string, unknown>);
}

/** The event's tenant (see itemTenant) and its `id`, canonical, if it has one; the reason when either is wrong. */
export function tenantAndId(
  e: Record<string, unknown>,
  ctx: ItemOrigin,
): { customer: string; instance: string; id: string | undefined } | string {
  const tenant = itemTenant(e, ctx);
  if (typeof tenant === 'string') {
    return tenant;
  }
  const id = typeof e.id === 'string' ? canonicalId(e.id) : undefined;
  if (e.id !== undefined && id === undefined) {
    return idProblem('id');
  }
  return { customer: tenant.customer, instance: tenant.instance, id };
}

/** Why `sessionId` is refused, if it is: a string of at most MAX_SESSION_ID_LENGTH UTF-16 units, any text. */
export function sessionIdProblem(value: unknown): string | undefined {
  return value !== undefined && (typeof value !== 'string' || value.length > MAX_SESSION_ID_LENGTH)
    ? `sessionId must be a string of at most ${MAX_SESSION_ID_LENGTH} characters`
    : undefined;
}

/** The first of the fields given that holds a string the store would refuse (see textProblem). */
export function firstTextProblem(e: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = e[field];
    const problem = typeof value === 'string' ? textProblem(field, value) : undefined;
    if (problem) {
      return problem;
    }
  }
  return undefined;
}

/**
 * The checks that end every event's validation, in this order: `sessionId`, the text of the fields given (see
 * textProblem), then `ts` (eventTime). The event's time in ms, or the first reason.
 */
export function sessionTextAndTime(
  e: Record<string, unknown>,
  textFields: readonly string[],
  now: number,
  retentionDays: number,
): number | string {
  return sessionIdProblem(e.sessionId) ?? firstTextProblem(e, textFields) ?? eventTime(e.ts, now, retentionDays);
}
