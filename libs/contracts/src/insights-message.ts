import { eventObject, tenantAndId, eventTime } from './event-fields';
import { validateInsightsEvent, type ValidatedInsightsEvent } from './insights-event';
import type { ItemOrigin } from './item-origin';
import type { EventRules } from './search-event';
import { echoedName } from './text';

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

const fail = (reason: string): ValidatedInsightsEvent => ({ ok: false, reason });

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
