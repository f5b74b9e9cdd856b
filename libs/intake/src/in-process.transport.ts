import { Injectable, Logger } from '@nestjs/common';
import { IngestStore } from './ingest-store.service';
import type { IngestRow } from './ingest-writer';
import { InsertBatcher } from './insert-batcher';
import { IntakeTransport, unavailable, type IntakeRequest } from './intake-transport';
import type { IntakeKind } from './intake-kinds';
import { intakeAnswer, type IntakeView, type ValidatedBatch } from './validate-items';

/**
 * Embedded transport: answers once the accepted items are durably written; concurrent requests share inserts
 * (one batcher per table). A request with a retry token (events that all carry ids) gets its own insert with that
 * token as ClickHouse's deduplication token, so a client retry is dropped by ClickHouse itself.
 */
@Injectable()
export class InProcessTransport extends IntakeTransport {
  private readonly logger = new Logger('Intake');
  private readonly batchers = new Map<string, InsertBatcher<IngestRow>>();

  constructor(private readonly store: IngestStore) {
    super();
  }

  async send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, { token }: IntakeRequest): Promise<IntakeView> {
    try {
      return intakeAnswer(batch, await this.batcher(kind).add(batch.rows, batch.rejected, { token }));
    } catch (err) {
      throw unavailable(this.logger, 'Storage', err);
    }
  }

  private batcher<Row extends IngestRow>(kind: IntakeKind<Row>): InsertBatcher<Row> {
    let batcher = this.batchers.get(kind.table);
    if (!batcher) {
      batcher = new InsertBatcher<IngestRow>((rows, rejected, token) => this.store.store(kind, rows, rejected, token));
      this.batchers.set(kind.table, batcher);
    }
    return batcher as unknown as InsertBatcher<Row>;
  }
}
