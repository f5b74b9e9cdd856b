import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { chDateTime, withHashedPersonalFields, type ItemOrigin, type RejectedEventRow } from '@app/contracts';
import { sameItem, type IngestRow, type Refused } from './ingest-writer';
import type { IntakeKind } from './intake-kinds';

/** One item to validate: a request's item, or a Kafka message's value. */
export interface IntakeItem {
  value: unknown;
  origin: ItemOrigin;
  /** Kafka: the message as text, kept as it is when rejected. */
  raw?: string;
  /** Kafka: why the message could not even be decoded (then it is rejected with this reason). */
  problem?: string;
  /** Kafka: the hash of the message (see the ingest app's PartitionLedger), carried by its row or rejected row. */
  messageHash?: string;
}

export interface ValidatedBatch<Row> {
  rows: Row[];
  /** Index (in the items) of each accepted row, in order (an item that yields several rows repeats its index). */
  indexes: number[];
  rejected: RejectedEventRow[];
  /** Index and reason of each rejected item, for the 202 answer. */
  reasons: Array<{ index: number; reason: string }>;
}

export class RejectedItem {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: "The item's position in the request's array" })
  index!: number;

  @ApiProperty({ example: 'hits must be an integer >= 0', description: 'Why, naming the field; the item is kept in rejected_events' })
  reason!: string;
}

/** The 202 answer of POST /events and PUT /documents. */
@ApiSchema({ name: 'IntakeResult' }) // the schema name generated clients already use
export class IntakeView {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 1,
    description: 'Items accepted (stored exactly once, also when the request is retried)',
  })
  accepted!: number;

  @ApiProperty({ type: [RejectedItem], description: 'Items refused, with their reasons' })
  rejected!: RejectedItem[];
}

/** The items of a request, from its authenticated tenant. */
export function httpItems(customer: string, instance: string, values: readonly unknown[], now = Date.now()): IntakeItem[] {
  const origin: ItemOrigin = { now, source: 'http', customer, instance };
  return values.map((value) => ({ value, origin }));
}

/**
 * The one validation loop of the intake, over HTTP and Kafka alike: items are validated one by one, so a bad
 * item is rejected with its index and reason (kept in rejected_events) instead of failing the others.
 */
export function validateItems<Row extends IngestRow>(kind: IntakeKind<Row>, items: readonly IntakeItem[]): ValidatedBatch<Row> {
  const batch: ValidatedBatch<Row> = { rows: [], indexes: [], rejected: [], reasons: [] };
  items.forEach((item, index) => {
    const result = item.problem === undefined ? kind.validate(item.value, item.origin) : { ok: false as const, reason: item.problem };
    if (result.ok) {
      if (item.messageHash !== undefined) {
        result.row.message_hash = item.messageHash;
      }
      batch.rows.push(result.row);
      batch.indexes.push(index);
      // Further rows of the same item (an Insights event's objects): the same index, so one accepted item, and
      // stored together (sameItem).
      if (result.more?.length) {
        sameItem([result.row, ...result.more]);
      }
      for (const row of result.more ?? []) {
        if (item.messageHash !== undefined) {
          row.message_hash = item.messageHash;
        }
        batch.rows.push(row);
        batch.indexes.push(index);
      }
      return;
    }
    batch.reasons.push({ index, reason: result.reason });
    batch.rejected.push(rejectedItem(kind, item, index, result.reason));
  });
  return batch;
}

/**
 * A rejected item with where it came from. Over HTTP it belongs to the authenticated tenant and keeps its index;
 * from Kafka it names the customer and instance it claims (when they are well-formed text) and keeps its offset,
 * so the offset counts as stored.
 */
function rejectedItem(kind: IntakeKind<IngestRow>, item: IntakeItem, index: number, reason: string): RejectedEventRow {
  const { origin } = item;
  const named =
    origin.source === 'http'
      ? origin
      : ((typeof item.value === 'object' && item.value !== null ? item.value : {}) as Record<string, unknown>);
  const name = (v: unknown) => (typeof v === 'string' && v.isWellFormed() ? v : '');
  return {
    customer: name(named.customer),
    instance: name(named.instance),
    kind: kind.rejectedKind?.(item.value, origin) ?? kind.kind,
    source: origin.source,
    topic: origin.topic ?? '',
    partition: origin.partition ?? -1,
    offset: origin.offset ?? -1,
    item_index: origin.source === 'http' ? index : -1,
    raw: keptRaw(item, name(named.customer)),
    reason,
    received_at: chDateTime(origin.now),
    message_hash: item.messageHash,
  };
}

/** What a rejected item keeps: as received, unless it names a shopper (then as JSON with the tokens hashed). */
function keptRaw(item: IntakeItem, customer: string): string {
  if (typeof item.value === 'object' && item.value !== null) {
    const kept = withHashedPersonalFields(customer, item.value);
    if (kept !== item.value) {
      return JSON.stringify(kept);
    }
  }
  return item.raw ?? JSON.stringify(item.value) ?? 'undefined';
}

/**
 * The 202 answer: what was stored, and every rejected index with its reason (those the store refused included).
 * Counted in items: an item whose rows are several counts once, and is rejected when the store refused one of them.
 */
export function intakeAnswer<Row>(batch: ValidatedBatch<Row>, refused: Refused<Row> = new Map()): IntakeView {
  const items = acceptedItems(batch.indexes);
  if (refused.size === 0) {
    return { accepted: items, rejected: batch.reasons };
  }
  const byStore = new Map<number, string>();
  batch.rows.forEach((row, i) => {
    if (refused.has(row) && !byStore.has(batch.indexes[i])) {
      byStore.set(batch.indexes[i], refused.get(row)!);
    }
  });
  const rejected = [...batch.reasons, ...[...byStore].map(([index, reason]) => ({ index, reason }))];
  return { accepted: items - byStore.size, rejected: rejected.sort((a, b) => a.index - b.index) };
}

/** Distinct indexes (they come in order): the items accepted. */
function acceptedItems(indexes: readonly number[]): number {
  let items = 0;
  for (let i = 0; i < indexes.length; i++) {
    if (i === 0 || indexes[i] !== indexes[i - 1]) {
      items++;
    }
  }
  return items;
}
