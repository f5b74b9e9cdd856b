import { rejectedHttpItem, type RejectedEventRow } from '@app/contracts';

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
