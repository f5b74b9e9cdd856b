import { createHash } from 'node:crypto';

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
