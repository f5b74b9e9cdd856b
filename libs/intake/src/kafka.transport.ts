import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Message } from 'kafkajs';
import { KafkaService } from '@app/kafka';
import { claimOutcome } from './intake-claims';
import { IntakeClaimsRepository, type ClaimRecord, type ClaimsRead } from './intake-claims.repository';
import { IngestStore } from './ingest-store.service';
import type { IngestRow } from './ingest-writer';
import { INSERT_INTERVAL_MS, InsertBatchers, type RetryToken } from './insert-batcher';
import { IntakeTransport, unavailable, type IntakeRequest } from './intake-transport';
import type { IntakeKind } from './intake-kinds';
import { listParamChars, MAX_LIST_PARAM_CHARS, Rounds } from '@app/clickhouse';
import { intakeAnswer, type IntakeView, type ValidatedBatch } from './validate-items';

/** A send that failed may have reached some partitions (kafkajs sends per broker): the answer must not deny it. */
const PRODUCE_FAILED = {
  'search-event': 'part of this request may have been accepted (events with ids are not counted twice on a retry)',
  // Interactions of another format (POST /1/events): its events carry no id, so a retry counts once by identity.
  interaction: 'part of this request may have been accepted (identical events with a timestamp are counted once on a retry)',
  document: 'part of this request may have been accepted (a retry writes the same documents again)',
} as const;

/** How long a request waits for an identical one that another request (of any process) is producing. */
const CLAIM_WAIT_MS = 10_000;
/**
 * Inserts of claims, and inserts of acknowledgements and releases, each start at least this far apart: about 10
 * inserts a second into intake_claims in all, at any request rate (docs/decisions/0042-the-kafka-transport-in-batches.md).
 */
export const CLAIM_INSERT_INTERVAL_MS = 200;
/** Reads of the claims of the waiting requests start at least this far apart. */
export const CLAIM_READ_INTERVAL_MS = 50;
/** Producer sends start at least this far apart (kafkajs has no linger): at most 5 every 100 ms. */
export const PRODUCE_LINGER_MS = 20;

/**
 * Kafka transport: produces each accepted item as its kind's message to its kind's topic and answers after the
 * broker acknowledged them all (acks=all). Rejected items are written first, so an answer given after the broker's
 * ack never has to say that nothing was accepted. A request with a retry token (events that all carry ids) is
 * claimed first (IntakeClaimsRepository): of identical requests arriving together, at one process or several,
 * exactly one produces (and writes the rejected items) and the others answer with its outcome; a retry of an
 * acknowledged request within a day is answered without producing again. A crash between the broker's ack and
 * recording it leaves that request countable twice once its claim expired (CLAIM_TTL_MS).
 *
 * No storage write and no send per request: requests arriving together share one producer send (at most one every
 * PRODUCE_LINGER_MS), one insert of their rejected items (InsertBatcher), one insert of their claims, one read of
 * the claims of their tokens and one insert of their acknowledgements (Rounds); each request is answered once the
 * round holding it is done, and a failed round fails each request in it.
 */
@Injectable()
export class KafkaTransport extends IntakeTransport {
  private readonly logger = new Logger('Intake');
  /** Identical requests in flight in this process share one outcome. */
  private readonly inFlight = new Map<string, Promise<IntakeView>>();
  /** Rejected items of requests arriving together share one insert (at most one every INSERT_INTERVAL_MS). */
  private readonly rejected: InsertBatchers;
  private readonly claimWrites = new Rounds<ClaimRecord, void>((records) => this.recorded(records), {
    minIntervalMs: CLAIM_INSERT_INTERVAL_MS,
  });
  private readonly outcomeWrites = new Rounds<ClaimRecord, void>((records) => this.recorded(records), {
    minIntervalMs: CLAIM_INSERT_INTERVAL_MS,
  });
  private readonly claimReads = new Rounds<RetryToken, ClaimsRead>((tokens) => this.claims.read(tokens), {
    minIntervalMs: CLAIM_READ_INTERVAL_MS,
    // A server gets the tokens in the request's URL: a read takes what fits.
    maxSize: MAX_LIST_PARAM_CHARS,
    size: (t) => listParamChars(t.token),
  });
  private readonly sends = new Rounds<{ topic: string; messages: Message[] }, void>((batches) => this.sendBatch(batches), {
    minIntervalMs: PRODUCE_LINGER_MS,
  });

  constructor(
    private readonly store: IngestStore,
    private readonly claims: IntakeClaimsRepository,
    private readonly kafka: KafkaService,
  ) {
    super();
    this.rejected = new InsertBatchers(store, { minIntervalMs: INSERT_INTERVAL_MS });
  }

  send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView> {
    const { token } = request;
    if (!token) {
      return this.bounded(kind.table, batch, () => this.accept(kind, batch, request));
    }
    let result = this.inFlight.get(token);
    if (!result) {
      result = this.bounded(kind.table, batch, () => this.accept(kind, batch, request)).finally(() => this.inFlight.delete(token));
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
    const retry = token ? { customer, instance, token } : undefined;
    const claim = randomUUID();
    const failed = (err: unknown, outcome?: string) => {
      if (retry) {
        // Not awaited: until the release is read, a retry waits for this claim (CLAIM_WAIT_MS, then its TTL).
        this.outcomeWrites.add({ ...retry, claim, state: 'released' }).catch(() => undefined);
      }
      return unavailable(this.logger, kind.kind === 'document' ? 'Document transport' : 'Event transport', err, outcome);
    };
    try {
      if (retry && (await this.claimed(retry, claim)) === 'accepted') {
        return answer;
      }
      if (batch.rejected.length > 0) {
        await this.rejected.of(kind).add([], batch.rejected);
      }
    } catch (err) {
      throw failed(err);
    }
    try {
      await this.produce(kind, items, batch);
    } catch (err) {
      throw failed(err, PRODUCE_FAILED[kind.kind]);
    }
    if (retry) {
      await this.outcomeWrites
        .add({ ...retry, claim, state: 'acked' })
        .catch((err: Error) => this.logger.warn(`the broker acknowledged request ${retry.token} but recording it failed: ${err.message}`));
    }
    return answer;
  }

  /** Claims the token; resolves 'mine' when this request produces, 'accepted' when an identical one did. */
  private async claimed(retry: RetryToken, claim: string): Promise<'mine' | 'accepted'> {
    await this.claimWrites.add({ ...retry, claim, state: 'claimed' });
    const deadline = Date.now() + CLAIM_WAIT_MS;
    // 'mine' must be read twice in a row: a claim stamped earlier whose insert committed a moment later shows in
    // the second read (what remains of that race is caught by the ingest app's event-id deduplication).
    let mine = 0;
    for (;;) {
      const { rows, nowMicros } = await this.claimReads.add(retry);
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

  private async recorded(records: ClaimRecord[]): Promise<void[]> {
    await this.claims.record(records);
    return [];
  }

  private async produce<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    items: readonly unknown[],
    batch: ValidatedBatch<Row>,
  ): Promise<void> {
    if (batch.rows.length === 0) {
      return;
    }
    // One message per item, made from its first row: an item of several rows (an Insights event's objects) is one
    // message, one offset, so the ingest app stores its rows together or not at all.
    const messages: Message[] = [];
    batch.rows.forEach((row, i) => {
      const index = batch.indexes[i];
      if (i === 0 || index !== batch.indexes[i - 1]) {
        messages.push(kind.message(items[index], row));
      }
    });
    await this.sends.add({ topic: kind.topic, messages });
  }

  /** One send (acks=all) of the messages of every request of the round, per topic in the order they came. */
  private async sendBatch(batches: ReadonlyArray<{ topic: string; messages: Message[] }>): Promise<void[]> {
    const byTopic = new Map<string, Message[]>();
    for (const { topic, messages } of batches) {
      const sent = byTopic.get(topic) ?? [];
      sent.push(...messages);
      byTopic.set(topic, sent);
    }
    const producer = await this.kafka.producer();
    await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    return [];
  }
}
