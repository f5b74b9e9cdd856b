import { Logger } from '@nestjs/common';
import { RetryLaterError } from '@app/errors';
import type { IngestRow } from './ingest-writer';
import type { IntakeKind } from './intake-kinds';
import type { IntakeView, ValidatedBatch } from './validate-items';

/** A request of POST /events or PUT /documents: its tenant, its items as sent, and the kind's retry token for it. */
export interface IntakeRequest {
  customer: string;
  instance: string;
  items: readonly unknown[];
  token?: string;
}

/**
 * Items (events and rejected items) of the requests a process is working on, beyond which a request is refused at
 * once (503 with Retry-After, nothing of it accepted): what a process holds in memory while storage or the broker
 * cannot keep up stays bounded. One request is always taken when none is in flight.
 */
export const MAX_QUEUED_ROWS = 50_000;

/** The answer to a request that finds MAX_QUEUED_ROWS items in flight. */
export function intakeBusy(): RetryLaterError {
  return new RetryLaterError(
    'The intake is busy: too many events wait to be stored; nothing of this request was accepted, retry later',
    1,
    'unavailable',
  );
}

/**
 * How the items accepted over HTTP reach storage, for every kind alike: in-process (the embedded deployment) or
 * through Kafka and the ingest app; chosen once, from KAFKA_BROKERS (IntakeModule).
 */
export abstract class IntakeTransport {
  /** Items of the requests this transport is working on: at most MAX_QUEUED_ROWS. */
  private itemsInFlight = 0;

  /**
   * Answers once the accepted items are durable (in-process) or acknowledged by the broker (Kafka). With a retry
   * token (the kind's, for this request), a client's retry of the same request is not counted twice.
   */
  abstract send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView>;

  /** Runs `work` for `batch`, or refuses it at once (intakeBusy) while MAX_QUEUED_ROWS items are in flight. */
  protected async bounded<Row>(batch: ValidatedBatch<Row>, work: () => Promise<IntakeView>): Promise<IntakeView> {
    const items = batch.rows.length + batch.rejected.length;
    if (this.itemsInFlight > 0 && this.itemsInFlight + items > MAX_QUEUED_ROWS) {
      throw intakeBusy();
    }
    this.itemsInFlight += items;
    try {
      return await work();
    } finally {
      this.itemsInFlight -= items;
    }
  }
}

/** The 503 of a failed intake, with Retry-After: 1, logged with its cause (never shown). */
export function unavailable(logger: Logger, what: string, err: unknown, outcome = 'nothing of this request was accepted'): RetryLaterError {
  logger.error(`${what} failed: ${(err as Error).message}`);
  return new RetryLaterError(`${what} is unavailable; ${outcome}, retry later`, 1, 'unavailable');
}
