import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { validateInsightsEvent, type InteractionRow, type ItemOrigin } from '@app/contracts';
import type { InteractionSource, Validated } from '@app/intake';

/**
 * The events of POST /1/events as the intake takes them (IntakeService.submitInteractions): each event validated into
 * its rows of `interactions` (validateInsightsEvent), stored exactly once with the rows of the same request. An
 * event carries no id, so there is no retry token: a request sent twice is stored twice, and only events with a
 * `timestamp` are then counted once (identical interactions count once). Not sent through Kafka (no `message`): the
 * intake answers 503 there.
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
}
