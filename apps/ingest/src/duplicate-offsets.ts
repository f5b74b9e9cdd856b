import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { DataVersions } from '@app/intake';
import { MetricsService } from '@app/metrics';

/** An offset range of a Kafka partition that more than one insert covered. */
export interface Overlap {
  topic: string;
  partition: number;
  first: number;
  last: number;
}

/** Overlaps of one partition that touch or intersect, merged into one range each (the input in any order). */
export function mergeRanges(ranges: readonly Overlap[]): Overlap[] {
  const merged: Overlap[] = [];
  const sorted = [...ranges].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition || a.first - b.first);
  for (const range of sorted) {
    const previous = merged.at(-1);
    if (previous?.topic === range.topic && previous.partition === range.partition && range.first <= previous.last + 1) {
      previous.last = Math.max(previous.last, range.last);
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

/** One offset stored `copies` times (the positive rows of one message, less what was compensated already). */
interface Duplicate {
  at: string;
  hash: string;
  /** Rows stored for it (sign 1). */
  stored: string;
  /** What they count, compensations included. */
  copies: string;
}

/** Offsets as compact ranges for a log line: 3-5,9. */
export function offsetRanges(offsets: readonly number[]): string {
  const parts: string[] = [];
  const sorted = [...offsets].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] <= sorted[j] + 1) {
      j++;
    }
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j;
  }
  return parts.join(',');
}

/**
 * Finds Kafka offsets stored more than once in search_events and makes them harmless. A member of the consumer
 * group can still write what the partition's next owner writes too, in two windows no check before the send closes:
 * an insert that takes longer than the session timeout to apply, and a pause between the membership check and the
 * send (docs/operations.md). Such a row is then counted twice, in the raw table and in every rollup.
 *
 * The repair is one compensating row per duplicated offset: a copy of the event with sign = 1 - copies. Every view
 * counts sum(sign), so the rollups take it in the same insert, and raw counts are sum(sign) too: every answer counts
 * the offset once. The compensating insert's token is derived from what it compensates, so two processes that found
 * the same duplicates write it once; and a check that runs after a compensation landed finds nothing (its sum is 1).
 */
@Injectable()
export class DuplicateOffsets {
  private readonly logger = new Logger(DuplicateOffsets.name);

  constructor(
    private readonly ch: ClickHouseService,
    private readonly metrics: MetricsService,
    private readonly versions: DataVersions,
  ) {}

  /**
   * Looks at the inserts of the last `hours` into the partitions `owned` (`topic:partition`), and compensates what was
   * stored twice. `beforeSend` is awaited right before the compensating insert (the consumer confirms it still owns
   * the partitions, so two processes never repair one partition at once). Answers how many offsets it compensated.
   *
   * Blocks of one partition never overlap unless an offset was stored twice (a re-delivered batch skips what is
   * stored) or the topic was recreated (other messages at the same offsets, which the messages' hashes tell apart):
   * a block overlaps when it starts before the furthest end of the blocks that start before it.
   */
  async repair(hours: number, owned: readonly string[], beforeSend: () => Promise<void>): Promise<number> {
    if (owned.length === 0) {
      return 0;
    }
    const blocks = await this.ch.query<{ topic: string; partition: number; first: string; last: string }>(
      `SELECT topic, partition, toString(first_offset) AS first, toString(least(last_offset, reach - 1)) AS last FROM (
         SELECT topic, partition, first_offset, last_offset,
           max(last_offset + 1) OVER (PARTITION BY topic, partition ORDER BY first_offset, last_offset
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
         FROM ${this.ch.table('ingest_blocks')}
         WHERE inserted_at >= now64(3) - toIntervalHour({hours:UInt32}) AND concat(topic, ':', toString(partition)) IN {owned:Array(String)}
       ) WHERE reach > first_offset`,
      { hours, owned },
    );
    let repaired = 0;
    for (const range of mergeRanges(blocks.map((b) => ({ ...b, first: Number(b.first), last: Number(b.last) })))) {
      repaired += await this.repairRange(range, beforeSend);
    }
    return repaired;
  }

  private async repairRange({ topic, partition, first, last }: Overlap, beforeSend: () => Promise<void>): Promise<number> {
    const where = `source = 'kafka' AND topic = {topic:String} AND partition = {partition:Int32}
      AND offset BETWEEN {first:Int64} AND {last:Int64}`;
    const params = { topic, partition, first, last };
    const duplicates = await this.ch.query<Duplicate>(
      `SELECT toString(offset) AS at, toString(message_hash) AS hash, toString(countIf(sign > 0)) AS stored, toString(sum(sign)) AS copies
       FROM ${this.ch.table('search_events')} WHERE ${where}
       GROUP BY offset, message_hash HAVING sum(sign) > 1
       ORDER BY offset, message_hash`,
      params,
    );
    if (duplicates.length === 0) {
      return 0;
    }
    const copies = new Map(duplicates.map((d) => [`${d.at}:${d.hash}`, Number(d.copies)]));
    // One stored copy of each duplicated message, to compensate with.
    const rows = await this.ch.query<Record<string, unknown> & { key: string; customer: string; instance: string }>(
      // The hash as text: a UInt64 read as a JSON number would lose digits.
      `SELECT * EXCEPT (sign) REPLACE (toString(message_hash) AS message_hash), concat(toString(offset), ':', toString(message_hash)) AS key
       FROM ${this.ch.table('search_events')}
       WHERE ${where} AND sign > 0 AND key IN {keys:Array(String)}
       LIMIT 1 BY offset, message_hash`,
      { ...params, keys: [...copies.keys()] },
    );
    const compensation = rows.map(({ key, ...row }) => ({ ...row, sign: 1 - copies.get(key)! }));
    // Named by what it compensates, rows stored and compensated so far included: the same findings give the same
    // token in every process, and a copy stored after an earlier compensation gives another.
    const token = createHash('sha256')
      .update(`${topic}:${partition}:${duplicates.map((d) => `${d.at}:${d.hash}:${d.stored}:${d.copies}`).join(',')}`)
      .digest('hex');
    await beforeSend();
    await this.ch.insert('search_events', compensation, `duplicates:${token}`);
    for (const { customer, instance } of compensation) {
      this.versions.bump(customer, instance);
    }
    this.metrics.duplicateOffsets.inc({ topic }, duplicates.length);
    this.logger.warn(
      `${topic}:${partition}: offsets ${offsetRanges(duplicates.map((d) => Number(d.at)))} were stored more than once ` +
        `(${duplicates.reduce((n, d) => n + Number(d.copies) - 1, 0)} extra rows); compensated, so every answer counts them once`,
    );
    return duplicates.length;
  }
}
