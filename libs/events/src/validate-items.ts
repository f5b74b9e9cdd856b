import { rejectedHttpItem, type RejectedEventRow } from '@app/contracts';
import type { Refused } from './ingest-writer';

export interface ValidatedBatch<Row> {
  rows: Row[];
  /** Request index of each accepted row. */
  indexes: number[];
  rejected: RejectedEventRow[];
  /** Index in the request and reason of each rejected item, for the 202 answer. */
  reasons: Array<{ index: number; reason: string }>;
}

/** Validates the items of a request one by one, so one bad item is rejected with its index instead of failing the batch. */
export function validateItems<Row>(
  customer: string,
  instance: string,
  kind: RejectedEventRow['kind'],
  items: readonly unknown[],
  now: number,
  validate: (item: unknown) => { ok: true; row: Row } | { ok: false; reason: string },
): ValidatedBatch<Row> {
  const batch: ValidatedBatch<Row> = { rows: [], indexes: [], rejected: [], reasons: [] };
  items.forEach((item, index) => {
    const result = validate(item);
    if (result.ok) {
      batch.rows.push(result.row);
      batch.indexes.push(index);
      return;
    }
    batch.reasons.push({ index, reason: result.reason });
    batch.rejected.push(rejectedHttpItem(customer, instance, kind, index, item, result.reason, now));
  });
  return batch;
}

/** The 202 answer: what was stored, and every rejected index with its reason (those the store refused included). */
export function intakeAnswer<Row>(batch: ValidatedBatch<Row>, refused: Refused<Row> = new Map()): { accepted: number; rejected: Array<{ index: number; reason: string }> } {
  if (refused.size === 0) return { accepted: batch.rows.length, rejected: batch.reasons };
  const byStore = batch.rows.flatMap((row, i) => (refused.has(row) ? [{ index: batch.indexes[i], reason: refused.get(row)! }] : []));
  return { accepted: batch.rows.length - byStore.length, rejected: [...batch.reasons, ...byStore].sort((a, b) => a.index - b.index) };
}
