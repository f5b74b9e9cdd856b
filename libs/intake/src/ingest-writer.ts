import { Injectable, Logger } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import { chDateTime, type RejectedEventRow } from '@app/contracts';
import { MetricsService } from '@app/metrics';
import { isDataError, storageReason } from './storage-errors';

export interface IngestTarget {
  table: 'search_events' | 'interactions' | 'documents';
  kind: RejectedEventRow['kind'];
  /** Appended to the batch token for this table's insert (rejected rows get `:rejected`); distinct per table. */
  tokenSuffix: string;
}

/**
 * Where a write's rows go: one table (the target itself), or several when `targetOf` is given (search events and
 * interactions share the events intake): each row to the table `targetOf` names, the target's own table first.
 */
export interface IngestTargets<Row = IngestRow> extends IngestTarget {
  targetOf?(row: Row): IngestTarget;
}

/** Awaited right before each insert statement is sent; throws to abandon the write unsent (see the ingest consumer). */
export type BeforeSend = () => Promise<void>;

/** Rows the store refused, by identity, with the store's reason. */
export type Refused<Row> = ReadonlyMap<Row, string>;

/**
 * The rows of one item that yields several (an Insights event's objects; see Validated in intake-kinds.ts), each
 * mapped to all of them: a split around a refused row never separates them, so they are stored together or all
 * refused. Rows of single-row items are not in it.
 */
const itemRows = new WeakMap<object, readonly object[]>();

/** Marks rows as the rows of one item (validateItems does, for items that yield several). */
export function sameItem(rows: readonly object[]): void {
  for (const row of rows) {
    itemRows.set(row, rows);
  }
}

/** Whether a and b are rows of the same item of several rows. */
function together(a: object, b: object): boolean {
  const rows = itemRows.get(a);
  return rows !== undefined && rows === itemRows.get(b);
}

/** Where to split rows in two without separating an item's rows; undefined when they are all one item's. */
function splitPoint(rows: readonly object[]): number | undefined {
  const half = Math.ceil(rows.length / 2);
  for (let at = half; at < rows.length; at++) {
    if (!together(rows[at - 1], rows[at])) {
      return at;
    }
  }
  for (let at = half - 1; at > 0; at--) {
    if (!together(rows[at - 1], rows[at])) {
      return at;
    }
  }
  return undefined;
}

/** The fields every ingested row shares: where it came from, so a refused row is kept with its offset. */
export interface IngestRow {
  customer: string;
  instance: string;
  source: RejectedEventRow['source'];
  topic: string;
  partition: number;
  offset: number;
  /** Kafka only: see PartitionLedger in the ingest app. */
  message_hash?: string;
}

/**
 * The write shared by events and documents: the rejected items, the accepted rows, then the rows the store refused,
 * with their metrics. With a token, each insert gets its own token derived from it, so a retried batch is dropped
 * (rollups included).
 *
 * Safety net behind validation: an insert that ClickHouse refuses for its data (not for a connection or server
 * failure, which the caller retries) is split in halves until the refused rows are alone (an item's several rows
 * are never split: they are refused together); those go to
 * rejected_events with the store's reason and the rest is stored. A refused insert stores nothing (each batch is
 * one block, far under max_insert_block_size), so the halves, with tokens derived from the batch's, count once.
 */
@Injectable()
export class IngestWriter {
  private readonly logger = new Logger(IngestWriter.name);

  constructor(
    private readonly ch: ClickHouseService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Answers the rows the store refused (now in rejected_events) with the store's reason. The statements, in this
   * order: the rejected items (`<token>:rejected`), each table's rows with that table's token
   * (`<token>:<tokenSuffix>`, split as `/a`, `/b` around refused rows), then the refused rows (`<token>:refused`).
   * A token names exactly the rows it carries as long as `token` does (the Kafka batch token digests the offsets
   * written; the embedded intake's is drawn per write and retried with the same rows): the rows of each table are
   * a fixed part of them.
   */
  async write<Row extends IngestRow>(
    target: IngestTargets<Row>,
    rows: readonly Row[],
    rejected: readonly RejectedEventRow[],
    token?: string,
    beforeSend?: BeforeSend,
  ): Promise<Refused<Row>> {
    const insert = async <T extends object>(table: string, values: readonly T[], tableToken: string | undefined) => {
      if (values.length === 0) {
        return;
      }
      await beforeSend?.();
      await this.ch.insert(table, values, tableToken);
    };
    // Rejected items first: once the accepted rows are stored, only a refused row can still fail the write.
    await insert('rejected_events', rejected.map(storable), token && `${token}:rejected`);
    const refused: Array<{ row: Row; reason: string; kind: RejectedEventRow['kind'] }> = [];
    const parts = byTarget(target, rows);
    for (const [part, partRows] of parts) {
      const stop = this.metrics.insertSeconds.startTimer({ table: part.table });
      const partRefused: Array<{ row: Row; reason: string }> = [];
      await this.insertIsolating(insert, part.table, partRows, token && `${token}:${part.tokenSuffix}`, partRefused);
      stop();
      refused.push(...partRefused.map((r) => ({ ...r, kind: part.kind })));
      const stored = partRows.length - partRefused.length;
      this.metrics.batchSize.observe({ table: part.table }, stored);
      if (stored > 0) {
        this.metrics.itemsAccepted.inc({ kind: part.kind, source: partRows[0].source }, stored);
      }
    }
    const refusedRows = refused.map(({ row, reason, kind }) => storable(refusedRow(kind, row, reason)));
    if (refused.length > 0) {
      this.logger.warn(`${refused.length} row(s) refused by storage kept in rejected_events, e.g. ${refused[0].reason}`);
    }
    await insert('rejected_events', refusedRows, token && `${token}:refused`);
    for (const r of [...rejected, ...refusedRows]) {
      this.metrics.rejected(r.kind, r.source, [r.reason]);
    }
    return new Map(refused.map((r) => [r.row, r.reason]));
  }

  private async insertIsolating<Row extends object>(
    insert: (table: string, rows: readonly Row[], token: string | undefined) => Promise<void>,
    table: string,
    rows: readonly Row[],
    token: string | undefined,
    refused: Array<{ row: Row; reason: string }>,
  ): Promise<void> {
    try {
      await insert(table, rows, token);
    } catch (err) {
      if (!isDataError(err) || rows.length === 0) {
        throw err;
      }
      const half = rows.length === 1 ? undefined : splitPoint(rows);
      if (half === undefined) {
        // One row, or the rows of one item: refused together.
        refused.push(...rows.map((row) => ({ row, reason: storageReason(err) })));
        return;
      }
      await this.insertIsolating(insert, table, rows.slice(0, half), token && `${token}/a`, refused);
      await this.insertIsolating(insert, table, rows.slice(half), token && `${token}/b`, refused);
    }
  }
}

/** The rows of each table, the target's own table first (also when it has none: its batch size is observed). */
function byTarget<Row>(target: IngestTargets<Row>, rows: readonly Row[]): Map<IngestTarget, Row[]> {
  if (!target.targetOf) {
    return new Map([[target, rows as Row[]]]);
  }
  const parts = new Map<IngestTarget, Row[]>([[target, []]]);
  for (const row of rows) {
    const part = target.targetOf(row);
    const own = part.table === target.table ? target : part;
    const list = parts.get(own);
    if (list) {
      list.push(row);
    } else {
      parts.set(own, [row]);
    }
  }
  return parts;
}

/** A row the store refused, kept with its origin (offset included, so the ingest consumer counts it as stored). */
function refusedRow(kind: RejectedEventRow['kind'], row: IngestRow, reason: string): RejectedEventRow {
  return {
    customer: row.customer,
    instance: row.instance,
    kind,
    source: row.source,
    topic: row.topic,
    partition: row.partition,
    offset: row.offset,
    item_index: -1,
    raw: JSON.stringify(row),
    reason,
    received_at: chDateTime(),
    message_hash: row.message_hash,
  };
}

/** A rejected row the store can always take: its text well-formed (a lone surrogate would fail the whole insert). */
function storable(row: RejectedEventRow): RejectedEventRow {
  const texts = [row.customer, row.instance, row.raw, row.reason];
  if (texts.every((t) => t.isWellFormed())) {
    return row;
  }
  return {
    ...row,
    customer: row.customer.toWellFormed(),
    instance: row.instance.toWellFormed(),
    raw: row.raw.toWellFormed(),
    reason: row.reason.toWellFormed(),
  };
}
