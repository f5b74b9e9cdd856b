import type { OffsetTable, OffsetsRepository } from './offsets.repository';

/** Offsets of stored rows read from ClickHouse at a time: the memory held per partition whatever the gap. */
export const LEDGER_PAGE = 10_000;

export type Verdict = 'stored' | 'new' | 'replaced';

/**
 * Which offsets of one topic partition are already in ClickHouse, so a batch re-delivered after a crash is not
 * written twice even when Kafka forms it with other boundaries than the insert that landed: ClickHouse, not the
 * committed offset, is the source of truth (docs/architecture.md, "Exactly once").
 *
 * Offsets belong to one incarnation of a topic: every stored row keeps a hash of its message (Kafka timestamp
 * and value), and an offset counts as stored only when the message fetched there has the same hash. A topic
 * deleted and recreated, or a new cluster, puts other messages at old offsets: they are 'replaced' and stored.
 *
 * Created at each assignment; reads stored offsets page by page (LEDGER_PAGE offsets at most in memory), and
 * after the last stored offset only this consumer's own inserts advance `insertedThrough`.
 */
export class PartitionLedger {
  private page = new Map<number, string[]>();
  private pageFrom = 0;
  private pageTo = -1;
  private insertedThrough: number;

  private constructor(
    private readonly repository: OffsetsRepository,
    private readonly table: OffsetTable,
    private readonly topic: string,
    private readonly partition: number,
    private readonly lastStored: number,
  ) {
    this.insertedThrough = lastStored;
  }

  static async open(repository: OffsetsRepository, table: OffsetTable, topic: string, partition: number): Promise<PartitionLedger> {
    return new PartitionLedger(repository, table, topic, partition, await repository.lastStored(topic, partition));
  }

  /**
   * Whether the message at `offset` with this hash is stored already, new, or a new message at a stored offset;
   * answered at once unless a page of stored offsets has to be read (past the stored end, always at once).
   */
  verdict(offset: number, hash: string): Verdict | Promise<Verdict> {
    if (offset > this.lastStored) {
      return offset <= this.insertedThrough ? 'stored' : 'new';
    }
    if (offset < this.pageFrom || offset > this.pageTo) {
      return this.load(offset).then(() => this.inPage(offset, hash));
    }
    return this.inPage(offset, hash);
  }

  private inPage(offset: number, hash: string): Verdict {
    const hashes = this.page.get(offset);
    if (!hashes) {
      return 'new';
    }
    return hashes.includes(hash) || hashes.includes('0') ? 'stored' : 'replaced';
  }

  /** Called after an insert of every not-yet-stored offset up to `last`. */
  inserted(last: number): void {
    this.insertedThrough = Math.max(this.insertedThrough, last);
  }

  private async load(from: number): Promise<void> {
    const to = Math.min(this.lastStored, from + LEDGER_PAGE - 1);
    const page = new Map<number, string[]>();
    for (const { offset, hash } of await this.repository.stored(this.table, this.topic, this.partition, from, to)) {
      const hashes = page.get(offset);
      if (hashes) {
        hashes.push(hash);
      } else {
        page.set(offset, [hash]);
      }
    }
    // Replaced only once read: a failed read leaves the page that was there (and its bounds) in place.
    this.page = page;
    this.pageFrom = from;
    this.pageTo = to;
  }
}
