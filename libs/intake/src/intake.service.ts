import { Injectable } from '@nestjs/common';
import type { InteractionRow, ItemOrigin } from '@app/contracts';
import { RetryLaterError } from '@app/errors';
import type { IngestRow } from './ingest-writer';
import { INTERACTIONS_TARGET, IntakeKinds, type IntakeKind, type Validated } from './intake-kinds';
import { IntakeTransport } from './intake-transport';
import { KafkaTransport } from './kafka.transport';
import { httpItems, validateItems, type IntakeView } from './validate-items';

/**
 * Clicks and conversions that arrive in another format than POST /events (POST /1/events, the Insights protocol),
 * stored through the same intake: the same batched, exactly-once write into `interactions` (rejected items first,
 * in rejected_events with kind 'interaction'), the same in-flight bound (its own, as a kind of its own), the same
 * 202-style answer counted in items.
 */
export interface InteractionSource {
  /**
   * One item (as the client sent it) to its rows, or the reason it is rejected (naming the field). An item may
   * yield several rows (an Insights event with three objectIDs: `row` the first, `more` the others, one
   * `object_index` each): they are written in one insert statement, so all are stored or none, and answered
   * under the item's index. The rows set `origin` (e.g. 'insights'); `intake_token` is set by the intake.
   */
  validate(value: unknown, origin: ItemOrigin): Validated<InteractionRow>;
  /**
   * A retry token for the request (same request sent again, same token: its rows are not stored twice; `undefined`
   * when the request has none). Recorded as `<token>:interactions`; make it distinct from POST /events' tokens
   * (e.g. prefix `insights:`).
   */
  retryToken?(customer: string, instance: string, items: readonly unknown[]): string | undefined;
  /**
   * Kafka transport only: the one message of an item on the search events topic, in a form IntakeKinds' events take
   * back into the same rows (a native click or conversion, or an InsightsMessage); `row` is the item's first row.
   * Without it, requests are refused (503) when the intake runs through Kafka.
   */
  message?(item: unknown, row: InteractionRow): { key: string; value: string };
}

/** POST /events and PUT /documents: the items validated one by one, the accepted ones sent by the transport. */
@Injectable()
export class IntakeService {
  private readonly interactionKinds = new WeakMap<InteractionSource, IntakeKind<InteractionRow>>();

  constructor(
    private readonly kinds: IntakeKinds,
    private readonly transport: IntakeTransport,
  ) {}

  /** Search events, clicks and conversions (`type`): rows of `search_events` and `interactions`. */
  submitEvents(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeView> {
    return this.submit(this.kinds.events, customer, instance, items);
  }

  submitDocuments(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeView> {
    return this.submit(this.kinds.documents, customer, instance, items);
  }

  /**
   * Interactions built by `source` from items of another format (see InteractionSource), exactly once like
   * POST /events: with a retry token, a retried request stores nothing twice. Answers `{ accepted, rejected }`
   * over the items (an item of several rows counts once). Pass the same source object on every call.
   */
  submitInteractions(customer: string, instance: string, items: readonly unknown[], source: InteractionSource): Promise<IntakeView> {
    if (!source.message && this.transport instanceof KafkaTransport) {
      return Promise.reject(
        new RetryLaterError(
          'These clicks and conversions cannot be sent through Kafka yet; nothing of this request was accepted',
          60,
          'unavailable',
        ),
      );
    }
    return this.submit(this.interactionKind(source), customer, instance, items);
  }

  private interactionKind(source: InteractionSource): IntakeKind<InteractionRow> {
    let kind = this.interactionKinds.get(source);
    if (!kind) {
      kind = {
        ...INTERACTIONS_TARGET,
        topic: this.kinds.events.topic,
        notifiesRejected: true,
        validate: (value, origin) => source.validate(value, origin),
        message: (item, row) => source.message!(item, row),
        retryToken: source.retryToken && ((customer, instance, items) => source.retryToken!(customer, instance, items)),
        markRetry: (row, token) => {
          row.intake_token = token;
        },
        retryTokenOf: (_row, token) => `${token}:${INTERACTIONS_TARGET.tokenSuffix}`,
        eventId: (row) => `i:${row.interaction_id}`,
      };
      this.interactionKinds.set(source, kind);
    }
    return kind;
  }

  private submit<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    customer: string,
    instance: string,
    items: readonly unknown[],
  ): Promise<IntakeView> {
    const batch = validateItems(kind, httpItems(customer, instance, items));
    return this.transport.send(kind, batch, { customer, instance, items, token: kind.retryToken?.(customer, instance, items) });
  }
}
