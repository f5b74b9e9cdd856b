import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { KafkaService } from '@app/kafka';
import { claimOutcome } from './intake-claims';
import { IntakeClaimsRepository } from './intake-claims.repository';
import { IngestStore } from './ingest-store.service';
import type { IngestRow } from './ingest-writer';
import { IntakeTransport, unavailable, type IntakeRequest } from './intake-transport';
import type { IntakeKind } from './intake-kinds';
import { intakeAnswer, type IntakeView, type ValidatedBatch } from './validate-items';

/** A send that failed may have reached some partitions (kafkajs sends per broker): the answer must not deny it. */
const PRODUCE_FAILED = {
  'search-event': 'part of this request may have been accepted (events with ids are not counted twice on a retry)',
  document: 'part of this request may have been accepted (a retry writes the same documents again)',
} as const;

/** How long a request waits for an identical one that another request (of any process) is producing. */
const CLAIM_WAIT_MS = 10_000;

/**
 * Kafka transport: produces each accepted item as its kind's message to its kind's topic and answers after the
 * broker acknowledged them all (acks=all). Rejected items are written first, so an answer given after the broker's
 * ack never has to say that nothing was accepted. A request with a retry token (events that all carry ids) is
 * claimed first (IntakeClaimsRepository): of identical requests arriving together, at one process or several,
 * exactly one produces and the others answer with its outcome; a retry of an acknowledged request within a day is
 * answered without producing again. A crash between the broker's ack and recording it leaves that request countable
 * twice once its claim expired (CLAIM_TTL_MS).
 */
@Injectable()
export class KafkaTransport extends IntakeTransport {
  private readonly logger = new Logger('Intake');
  /** Identical requests in flight in this process share one outcome. */
  private readonly inFlight = new Map<string, Promise<IntakeView>>();

  constructor(
    private readonly store: IngestStore,
    private readonly claims: IntakeClaimsRepository,
    private readonly kafka: KafkaService,
  ) {
    super();
  }

  send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView> {
    const { token } = request;
    if (!token) {
      return this.accept(kind, batch, request);
    }
    let result = this.inFlight.get(token);
    if (!result) {
      result = this.accept(kind, batch, request).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, result);
    }
    return result;
  }

  private async accept<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    batch: ValidatedBatch<Row>,
    { customer, instance, items, token }: IntakeRequest,
  ): Promise<IntakeView> {
    const answer = intakeAnswer(batch);
    const claim = randomUUID();
    const failed = async (err: unknown, outcome?: string) => {
      if (token) {
        await this.claims.record(customer, instance, token, claim, 'released').catch(() => undefined);
      }
      return unavailable(this.logger, kind.kind === 'document' ? 'Document transport' : 'Event transport', err, outcome);
    };
    try {
      await this.store.store(kind, [], batch.rejected, token);
      if (token && (await this.claimed(customer, instance, token, claim)) === 'accepted') {
        return answer;
      }
    } catch (err) {
      throw await failed(err);
    }
    try {
      await this.produce(kind, items, batch);
    } catch (err) {
      throw await failed(err, PRODUCE_FAILED[kind.kind]);
    }
    if (token) {
      await this.claims
        .record(customer, instance, token, claim, 'acked')
        .catch((err: Error) => this.logger.warn(`the broker acknowledged request ${token} but recording it failed: ${err.message}`));
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
      if (outcome === 'accepted' || (outcome === 'mine' && ++mine === 2)) {
        return outcome;
      }
      if (outcome === 'mine') {
        continue;
      }
      mine = 0;
      if (Date.now() > deadline) {
        throw new Error(`an identical request is still being produced after ${CLAIM_WAIT_MS} ms`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async produce<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    items: readonly unknown[],
    batch: ValidatedBatch<Row>,
  ): Promise<void> {
    if (batch.rows.length === 0) {
      return;
    }
    const messages = batch.rows.map((row, i) => kind.message(items[batch.indexes[i]], row));
    const producer = await this.kafka.producer();
    await producer.send({ topic: kind.topic, acks: -1, messages });
  }
}
