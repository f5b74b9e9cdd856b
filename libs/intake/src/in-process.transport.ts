import { Injectable, Logger, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { SearchEventRow } from '@app/contracts';
import { IngestStore } from './ingest-store.service';
import type { IngestRow } from './ingest-writer';
import { INSERT_INTERVAL_MS, InsertBatchers } from './insert-batcher';
import { IntakeTokensRepository } from './intake-tokens.repository';
import { IntakeTransport, unavailable, type IntakeRequest } from './intake-transport';
import type { IntakeKind } from './intake-kinds';
import { intakeAnswer, type IntakeView, type ValidatedBatch } from './validate-items';

/** The 503 of a request whose rows go to several tables: one may be stored, the retry completes the others. */
const PART_STORED = 'part of this request may be stored (a retry with the same ids completes it exactly)';

/** Whether the rows go to more than one table of the kind (search events and interactions). */
function spansTables<Row extends IngestRow>(kind: IntakeKind<Row>, rows: readonly Row[]): boolean {
  const tables = new Set(kind.targetOf ? rows.map((row) => kind.targetOf!(row).table) : []);
  return tables.size > 1;
}

/** The ids of the rows stored in `search_events` (RetryToken.searchIds). */
function searchIdsOf<Row extends IngestRow>(kind: IntakeKind<Row>, rows: readonly Row[]): string[] {
  return rows.flatMap((row) =>
    (kind.targetOf?.(row).table ?? kind.table) === 'search_events' ? [(row as unknown as SearchEventRow).event_id] : [],
  );
}

/**
 * Embedded transport: answers once the accepted items are durably written. Concurrent requests share inserts (one
 * batcher per kind, at most one insert per INSERT_INTERVAL_MS; a flush writes every table of the kind's rows). A
 * request with a retry token (events that all carry ids) has the token stored with its rows (each table records
 * it under its own name, see IntakeKind.retryTokenOf), and is not written again where the token is found stored.
 * In cluster mode an insert holds one customer's instance only: its rows go to one shard, so it is stored whole or
 * not at all, and a request answered 503 left nothing that its retry (with or without ids) would count twice.
 */
@Injectable()
export class InProcessTransport extends IntakeTransport {
  private readonly logger = new Logger('Intake');
  private readonly batchers: InsertBatchers;
  private readonly perTenant: boolean;

  constructor(store: IngestStore, tokens: IntakeTokensRepository, @Optional() config?: AppConfig) {
    super();
    this.batchers = new InsertBatchers(store, { minIntervalMs: INSERT_INTERVAL_MS, storedTokens: (t) => tokens.stored(t) });
    this.perTenant = config?.clickhouse.cluster !== undefined;
  }

  send<Row extends IngestRow>(kind: IntakeKind<Row>, batch: ValidatedBatch<Row>, request: IntakeRequest): Promise<IntakeView> {
    return this.bounded(kind.table, batch, () => this.write(kind, batch, request));
  }

  private async write<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    batch: ValidatedBatch<Row>,
    { customer, instance, token }: IntakeRequest,
  ): Promise<IntakeView> {
    const retry = token && kind.markRetry ? { customer, instance, token, searchIds: searchIdsOf(kind, batch.rows) } : undefined;
    if (retry) {
      for (const row of batch.rows) {
        kind.markRetry!(row, retry.token);
      }
    }
    try {
      const batcher = this.batchers.of(kind, this.perTenant ? `${customer}/${instance}` : undefined);
      return intakeAnswer(batch, await batcher.add(batch.rows, batch.rejected, retry));
    } catch (err) {
      throw unavailable(this.logger, 'Storage', err, spansTables(kind, batch.rows) ? PART_STORED : undefined);
    }
  }
}
