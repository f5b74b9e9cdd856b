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
 * Items (events and rejected items) of the requests a process is working on, per table, beyond which a request is
 * refused at once (503 with Retry-After, nothing of it accepted): what a process holds in memory while storage or the
 * broker cannot keep up stays bounded, and a catalogue upload never refuses search events. One request per table is
 * always taken when none is in flight.
 */
export const MAX_ITEMS_IN_FLIGHT = 50_000;

/** The answer to a request that finds MAX_ITEMS_IN_FLIGHT items of its table in flight. */
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
  /** Items of the requests this transport is working on, per table: at most MAX_ITEMS_IN_FLIGHT each. */
  private readonly itemsInFlight = new Map<string, number>();

  /**
   * Answers once the accepted items are durable (in-process) or acknowledged by the broker (Kafka). With a retry
   * token (the kind's, for this request), a client's retry of the same request is not counted twice.
   */
  abstract send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView>;

  /**
   * Runs `work` for `batch` of `table`, or refuses it at once (intakeBusy) when it would take the table's items in
   * flight beyond MAX_ITEMS_IN_FLIGHT.
   */
  protected async bounded<Row>(table: string, batch: ValidatedBatch<Row>, work: () => Promise<IntakeView>): Promise<IntakeView> {
    const items = batch.rows.length + batch.rejected.length;
    const before = this.itemsInFlight.get(table) ?? 0;
    if (before > 0 && before + items > MAX_ITEMS_IN_FLIGHT) {
      throw intakeBusy();
    }
    this.itemsInFlight.set(table, before + items);
    try {
      return await work();
    } finally {
      const left = this.itemsInFlight.get(table)! - items;
      if (left === 0) {
        this.itemsInFlight.delete(table);
      } else {
        this.itemsInFlight.set(table, left);
      }
    }
  }

  /** The items of `table` in flight. */
  itemsInFlightOf(table: string): number {
    return this.itemsInFlight.get(table) ?? 0;
  }
}

/** The 503 of a failed intake, with Retry-After: 1, logged with its cause (never shown). */
export function unavailable(logger: Logger, what: string, err: unknown, outcome = 'nothing of this request was accepted'): RetryLaterError {
  logger.error(`${what} failed: ${(err as Error).message}`);
  return new RetryLaterError(`${what} is unavailable; ${outcome}, retry later`, 1, 'unavailable');
}
