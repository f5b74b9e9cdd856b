import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '@app/config';
import { fromChDateTime, type SearchEvent, type SearchEventRow } from '@app/contracts';
import { DomainError } from '@app/http';
import { KafkaService } from '@app/kafka';
import { InsertBatcher } from './insert-batcher';
import { SearchEventValidator } from './search-event-validator';
import { SearchEventsRepository } from './search-events.repository';
import { intakeAnswer } from './validate-items';

export interface IntakeResult {
  accepted: number;
  rejected: Array<{ index: number; reason: string }>;
}

/** POST /events behind one interface: in-process (embedded) or Kafka, chosen by KAFKA_BROKERS. */
export abstract class EventIntake {
  abstract submit(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeResult>;
}

/**
 * A request whose events all carry ids has a token derived from them: the same request sent again (a client
 * retry) has the same token and is not counted twice.
 */
function requestToken(customer: string, instance: string, items: readonly unknown[]): string | undefined {
  const ids = items.map((i) => (i as { id?: unknown })?.id);
  if (items.length === 0 || !ids.every((id) => typeof id === 'string')) return undefined;
  return `http:${customer}:${instance}:${createHash('sha256').update(ids.join(',')).digest('hex')}`;
}

export function unavailable(logger: Logger, what: string, err: unknown): DomainError {
  logger.error(`${what} failed: ${(err as Error).message}`);
  return new DomainError('unavailable', `${what} is unavailable; nothing of this request was accepted, retry later`);
}

/**
 * Embedded transport: answers once the accepted events are durably written; concurrent requests share inserts.
 * A request whose events all carry ids gets its own insert with a token derived from them, so a client retry
 * of the same request is not counted twice.
 */
@Injectable()
export class InProcessEventIntake extends EventIntake {
  private readonly logger = new Logger('EventIntake');
  private readonly batcher: InsertBatcher<SearchEventRow>;

  constructor(
    private readonly validator: SearchEventValidator,
    repository: SearchEventsRepository,
  ) {
    super();
    this.batcher = new InsertBatcher((events, rejected, token) => repository.write(events, rejected, token));
  }

  async submit(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeResult> {
    const batch = this.validator.validateHttp(customer, instance, items);
    const token = requestToken(customer, instance, items);
    try {
      // Embedded: the token is the insert's deduplication token, so a retry is dropped by ClickHouse itself.
      return intakeAnswer(batch, await this.batcher.add(batch.rows, batch.rejected, { token }));
    } catch (err) {
      throw unavailable(this.logger, 'Storage', err);
    }
  }
}

/**
 * Kafka transport: answers after the broker acknowledged every accepted event (acks=all). A retried request with
 * ids (same token within a day) is answered without producing again; a crash between the broker's ack and
 * recording the token leaves that one request countable twice.
 */
@Injectable()
export class KafkaEventIntake extends EventIntake {
  private readonly logger = new Logger('EventIntake');

  constructor(
    private readonly validator: SearchEventValidator,
    private readonly repository: SearchEventsRepository,
    private readonly kafka: KafkaService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async submit(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeResult> {
    const batch = this.validator.validateHttp(customer, instance, items);
    // The message carries what the ingest app needs to rebuild the same row: the id and timestamp fixed here,
    // the bot verdict instead of the user agent (which is not passed on).
    const messages = batch.rows.map((row, i) => {
      const { sessionId } = items[batch.indexes[i]] as { sessionId?: string };
      const event: SearchEvent & { customer: string; instance: string } = {
        id: row.event_id,
        customer,
        instance,
        ts: fromChDateTime(row.ts),
        phrase: row.raw_phrase,
        language: row.language,
        hits: row.hits,
        bot: row.bot,
        sessionId,
      };
      return { key: sessionId ?? row.event_id, value: JSON.stringify(event) };
    });
    const token = requestToken(customer, instance, items);
    try {
      if (token && (await this.repository.requestSeen(customer, instance, token))) {
        return { accepted: batch.rows.length, rejected: batch.reasons };
      }
      if (messages.length > 0) {
        const producer = await this.kafka.producer();
        await producer.send({ topic: this.config.kafka.topicSearchEvents, acks: -1, messages });
      }
      if (token) await this.repository.recordRequest(customer, instance, token);
      await this.repository.write([], batch.rejected);
    } catch (err) {
      throw unavailable(this.logger, 'Event transport', err);
    }
    return { accepted: batch.rows.length, rejected: batch.reasons };
  }
}
