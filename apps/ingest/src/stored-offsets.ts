/**
 * Which offsets of one topic partition are already in ClickHouse, so a batch re-delivered after a crash is not
 * written twice even when Kafka forms it with other boundaries than the insert that landed (DESIGN.md
 * section 6): ClickHouse, not the committed offset, is the source of truth.
 *
 * Loaded once per assignment: every offset up to `windowEnd` that ClickHouse holds is in `window`; after that,
 * this consumer's own inserts advance `insertedThrough` contiguously.
 */
export class StoredOffsets {
  private insertedThrough: number;

  constructor(
    private readonly windowEnd: number,
    private readonly window: ReadonlySet<number>,
  ) {
    this.insertedThrough = windowEnd;
  }

  has(offset: number): boolean {
    return offset <= this.windowEnd ? this.window.has(offset) : offset <= this.insertedThrough;
  }

  /** Called after an insert of every not-yet-stored offset up to `last`. */
  inserted(last: number): void {
    this.insertedThrough = Math.max(this.insertedThrough, last);
  }
}
