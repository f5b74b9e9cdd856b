/** Messages of a partition within which a repeated event id is a duplicate (e.g. a producer's retry). */
export const DEDUP_WINDOW = 10_000;

/**
 * 53 bits of FNV-1a (two 32-bit lanes) over customer, instance and the whole id: ids of other instances never
 * meet, time-ordered ids (UUIDv7) that share their leading digits stay apart, and a collision within one window
 * is about 1 in 10^11.
 */
function key(customer: string, instance: string, eventId: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  // Over compositeKey(customer, instance, eventId), without building that string.
  const parts = [customer, instance, eventId];
  for (let p = 0; p < parts.length; p++) {
    const text = parts[p];
    for (let i = p === 0 ? 0 : -1; i < text.length; i++) {
      const c = i < 0 ? 0 : text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    }
  }
  return (a & 0x1fffff) * 0x100000000 + b;
}

export interface StoredEventId {
  customer: string;
  instance: string;
  event_id: string;
}

/**
 * The event ids of the last DEDUP_WINDOW events stored from one partition (read from ClickHouse when the
 * partition is assigned, then advanced by the consumer after each insert), so the same event written twice to
 * the partition, by a producer's retry after a lost acknowledgement, is stored once. Memory: DEDUP_WINDOW numbers
 * per partition (twice that right after an assignment at most).
 */
export class RecentEventIds {
  private readonly ring: number[] = [];
  private readonly keys = new Set<number>();
  private next = 0;
  /** DEDUP_WINDOW, or all ids read at the assignment (those around the first fetched offset) when more. */
  private readonly capacity: number;

  constructor(stored: readonly StoredEventId[] = []) {
    this.capacity = Math.max(DEDUP_WINDOW, stored.length);
    for (const s of stored) {
      this.add(s.customer, s.instance, s.event_id);
    }
  }

  has(customer: string, instance: string, eventId: string): boolean {
    return this.keys.has(key(customer, instance, eventId));
  }

  add(customer: string, instance: string, eventId: string): void {
    const k = key(customer, instance, eventId);
    if (this.keys.has(k)) {
      return;
    }
    if (this.ring.length < this.capacity) {
      this.ring.push(k);
    } else {
      this.keys.delete(this.ring[this.next]);
      this.ring[this.next] = k;
      this.next = (this.next + 1) % this.capacity;
    }
    this.keys.add(k);
  }
}
