import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { fromChDateTime, type SearchEvent, type SearchEventRow } from '@app/contracts';
import { DomainError } from '@app/http';
import { KafkaService } from '@app/kafka';
import { InsertBatcher } from './insert-batcher';
import { IntakeClaimsRepository, claimOutcome } from './intake-claims';
import { SearchEventValidator } from './search-event-validator';
import { SearchEventsRepository } from './search-events.repository';
import { intakeAnswer, type ValidatedBatch } from './validate-items';

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

export function unavailable(logger: Logger, what: string, err: unknown, outcome = 'nothing of this request was accepted'): DomainError {
  logger.error(`${what} failed: ${(err as Error).message}`);
  return new DomainError('unavailable', `${what} is unavailable; ${outcome}, retry later`);
}

/** A send that failed may have reached some partitions (kafkajs sends per broker): the answer must not deny it. */
const PRODUCE_FAILED = 'part of this request may have been accepted (events with ids are not counted twice on a retry)';

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

/** How long a request waits for an identical one that another request (of any process) is producing. */
const CLAIM_WAIT_MS = 10_000;

/**
 * Kafka transport: answers after the broker acknowledged every accepted event (acks=all).
 * Rejected items are written first, so an answer given after the broker's ack never has to say that nothing was
 * accepted. A request whose events all carry ids is claimed first (IntakeClaimsRepository): of identical requests
 * arriving together, at one process or several, exactly one produces and the others answer with its outcome; a
 * retry of an acknowledged request within a day is answered without producing again. A crash between the broker's
 * ack and recording it leaves that request countable twice once its claim expired (CLAIM_TTL_MS).
 */
@Injectable()
export class KafkaEventIntake extends EventIntake {
  private readonly logger = new Logger('EventIntake');
  /** Identical requests in flight in this process share one outcome. */
  private readonly inFlight = new Map<string, Promise<IntakeResult>>();

  constructor(
    private readonly validator: SearchEventValidator,
    private readonly repository: SearchEventsRepository,
    private readonly claims: IntakeClaimsRepository,
    private readonly kafka: KafkaService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  submit(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeResult> {
    const token = requestToken(customer, instance, items);
    if (!token) return this.accept(customer, instance, items);
    let result = this.inFlight.get(token);
    if (!result) {
      result = this.accept(customer, instance, items, token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, result);
    }
    return result;
  }

  private async accept(customer: string, instance: string, items: readonly unknown[], token?: string): Promise<IntakeResult> {
    const batch = this.validator.validateHttp(customer, instance, items);
    const answer = intakeAnswer(batch);
    const claim = randomUUID();
    const failed = async (err: unknown, outcome?: string) => {
      if (token) await this.claims.record(customer, instance, token, claim, 'released').catch(() => undefined);
      return unavailable(this.logger, 'Event transport', err, outcome);
    };
    try {
      await this.repository.write([], batch.rejected, token);
      if (token && (await this.claimed(customer, instance, token, claim)) === 'accepted') return answer;
    } catch (err) {
      throw await failed(err);
    }
    try {
      await this.produce(customer, instance, items, batch);
    } catch (err) {
      throw await failed(err, PRODUCE_FAILED);
    }
    if (token) {
      await this.claims.record(customer, instance, token, claim, 'acked').catch((err: Error) => this.logger.warn(`the broker acknowledged request ${token} but recording it failed: ${err.message}`));
    }
    return answer;
  }

  /** Claims the token; resolves 'mine' when this request produces, 'accepted' when an identical one did. */
  private async claimed(customer: string, instance: string, token: string, claim: string): Promise<'mine' | 'accepted'> {
    await this.claims.record(customer, instance, token, claim, 'claimed');
    const deadline = Date.now() + CLAIM_WAIT_MS;
    // 'mine' must be read twice in a row: a claim stamped earlier whose insert committed a moment later shows in
    // the second read (what remains of that race is caught by the ingest app's event-id deduplication).
    let mine = 0;
    for (;;) {
      const { rows, nowMicros } = await this.claims.read(customer, instance, token);
      const outcome = claimOutcome(rows, claim, nowMicros);
      if (outcome === 'accepted' || (outcome === 'mine' && ++mine === 2)) return outcome;
      if (outcome === 'mine') continue;
      mine = 0;
      if (Date.now() > deadline) throw new Error(`an identical request is still being produced after ${CLAIM_WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async produce(customer: string, instance: string, items: readonly unknown[], batch: ValidatedBatch<SearchEventRow>): Promise<void> {
    if (batch.rows.length === 0) return;
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
    const producer = await this.kafka.producer();
    await producer.send({ topic: this.config.kafka.topicSearchEvents, acks: -1, messages });
  }
}
