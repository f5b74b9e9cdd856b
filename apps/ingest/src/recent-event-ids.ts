/** Messages of a partition within which a repeated event id is a duplicate (e.g. a producer's retry). */
export const DEDUP_WINDOW = 10_000;

/** 52 bits of a UUID as a number: a compact key (a collision within one window is about 1 in 10^8). */
function key(eventId: string): number {
  return parseInt(eventId.slice(0, 8) + eventId.slice(9, 13) + eventId.slice(14, 15), 16);
}

/**
 * The event ids of the last DEDUP_WINDOW messages of one partition that were stored (read from ClickHouse when
 * the partition is assigned, then advanced by the consumer), so the same event written twice to the partition,
 * by a producer retry after a lost acknowledgement, is stored once. Memory: DEDUP_WINDOW numbers per partition.
 */
export class RecentEventIds {
  private readonly ring: number[] = [];
  private readonly keys = new Set<number>();
  private next = 0;

  constructor(eventIds: readonly string[] = []) {
    for (const id of eventIds) this.add(id);
  }

  has(eventId: string): boolean {
    return this.keys.has(key(eventId));
  }

  add(eventId: string): void {
    const k = key(eventId);
    if (this.keys.has(k)) return;
    if (this.ring.length < DEDUP_WINDOW) this.ring.push(k);
    else {
      this.keys.delete(this.ring[this.next]);
      this.ring[this.next] = k;
      this.next = (this.next + 1) % DEDUP_WINDOW;
    }
    this.keys.add(k);
  }
}
