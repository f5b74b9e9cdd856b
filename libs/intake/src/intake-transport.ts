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
 * How the items accepted over HTTP reach storage, for every kind alike: in-process (the embedded deployment) or
 * through Kafka and the ingest app; chosen once, from KAFKA_BROKERS (IntakeModule).
 */
export abstract class IntakeTransport {
  /**
   * Answers once the accepted items are durable (in-process) or acknowledged by the broker (Kafka). With a retry
   * token (the kind's, for this request), a client's retry of the same request is not counted twice.
   */
  abstract send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView>;
}

/** The 503 of a failed intake, with Retry-After: 1, logged with its cause (never shown). */
export function unavailable(logger: Logger, what: string, err: unknown, outcome = 'nothing of this request was accepted'): RetryLaterError {
  logger.error(`${what} failed: ${(err as Error).message}`);
  return new RetryLaterError(`${what} is unavailable; ${outcome}, retry later`, 1, 'unavailable');
}
