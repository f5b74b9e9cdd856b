import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import {
  fromChDateTime,
  INSIGHTS_MESSAGE_TYPE,
  validateInsightsEvent,
  type InsightsMessage,
  type InteractionRow,
  type ItemOrigin,
} from '@app/contracts';
import type { InteractionSource, Validated } from '@app/intake';

/**
 * The events of POST /1/events as the intake takes them (IntakeService.submitInteractions): each event validated into
 * its rows of `interactions` (validateInsightsEvent), stored exactly once with the rows of the same request. An
 * event carries no id, so there is no retry token: a request sent twice is stored twice, and only events with a
 * `timestamp` are then counted once (identical interactions count once). On the Kafka transport each event is one
 * message (InsightsMessage), from which the ingest app builds the same rows.
 */
@Injectable()
export class InsightsSource implements InteractionSource {
  constructor(private readonly config: AppConfig) {}

  validate(value: unknown, origin: ItemOrigin): Validated<InteractionRow> {
    const result = validateInsightsEvent(value, origin, this.config);
    if (!result.ok) {
      return result;
    }
    // A view is stored like a click (the column is a name), never counted; InteractionRow names only the counted types.
    const [row, ...more] = result.rows as unknown as InteractionRow[];
    return { ok: true, row, more };
  }

  /**
   * The event as one message (`row` is its first row): the event as sent, with its tenant, its id (the first row's;
   * the others derive from it) and the receive time, its default timestamp, so every delivery gives the same rows.
   * Keyed by the id: a shop's events spread over all partitions.
   */
  message(item: unknown, row: InteractionRow): { key: string; value: string } {
    const message: InsightsMessage = {
      type: INSIGHTS_MESSAGE_TYPE,
      customer: row.customer,
      instance: row.instance,
      id: row.interaction_id,
      receivedAt: fromChDateTime(row.received_at),
      event: item,
    };
    return { key: row.interaction_id, value: JSON.stringify(message) };
  }
}
