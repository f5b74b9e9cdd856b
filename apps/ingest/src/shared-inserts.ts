import { createHash } from 'node:crypto';
import type { RejectedEventRow } from '@app/contracts';
import type { IntakeKind } from '@app/intake';
import type { KafkaRow } from './kafka-message';

/**
 * Rows of one insert on the embedded engine, at most (unless one partition batch alone has more): the engine's memory
 * grows with an insert (docs/decisions/0082-ingest-batches-share-an-insert-on-the-embedded-engine.md).
 */
export const SHARED_INSERT_ROWS = 20_000;

/**
 * Bytes of Kafka message values waiting for the insert, at most, before a partition's next batch waits for the one
 * before it (as much as one fetch brings): batches that store nothing (stored already, repeats) and large documents
 * count too (docs/decisions/0083-fetch-ahead-while-the-shared-insert-has-room.md).
 */
export const SHARED_WAITING_BYTES = 8 * 1024 * 1024;

/** One partition batch's insert: its rows, rejected items, token, and the group generation that fetched it. */
export interface BatchInsert {
  kind: IntakeKind<KafkaRow>;
  rows: KafkaRow[];
  rejected: RejectedEventRow[];
  token: string;
  generation: number | null;
  /** The bytes of its messages' values: what the batch holds in memory until it is stored. */
  bytes: number;
}

interface Waiting extends BatchInsert {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The token of an insert shared by several partition batches: it names exactly their rows, since each batch's token
 * does (batchToken). A batch alone keeps its own token.
 */
export const sharedToken = (tokens: readonly string[]) =>
  tokens.length === 1 ? tokens[0] : `shared:${createHash('sha256').update(tokens.join('\n')).digest('hex').slice(0, 32)}`;

/**
 * The one insert slot of the embedded engine (which runs one insert at a time): the partition batches that wait for it
 * while an insert runs are sent together, up to `maxRows`, as one insert. An insert's cost is mostly fixed (the
 * table's part, each view's part, the membership check), so the waiting batches no longer pay it each.
 *
 * A group is a run of waiting batches of one kind and generation, in the order they arrived (a partition's batches
 * stay in order). It is written by `write` as a whole, retries included, so a retry sends the same rows under the same
 * token; every batch of it settles with the group. Only for a store no other process writes to: a partition's next
 * owner in another process could form other groups, whose tokens would differ (on a server every partition batch is
 * an insert of its own, docs/decisions/0019-one-insert-per-partition-range.md).
 */
export class SharedInserts {
  private readonly waiting: Waiting[] = [];
  /** The rows and rejected items of `waiting`, and the bytes of their messages. */
  private waitingRows = 0;
  private waitingBytes = 0;
  private running = false;

  constructor(
    private readonly write: (group: BatchInsert) => Promise<void>,
    private readonly maxRows = SHARED_INSERT_ROWS,
    private readonly maxWaitingBytes = SHARED_WAITING_BYTES,
  ) {}

  /** Settles once the insert that carried `batch` is done (or failed for good). */
  insert(batch: BatchInsert): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ ...batch, resolve, reject });
      this.waitingRows += batch.rows.length + batch.rejected.length;
      this.waitingBytes += batch.bytes;
      this.next();
    });
  }

  /**
   * Whether the batches waiting (not those being sent) leave room in the next insert, and hold less than
   * maxWaitingBytes of messages: until then, fetching more makes the next insert larger. Counted over every kind
   * and generation, of which an insert takes one.
   */
  hasRoom(): boolean {
    return this.waitingRows < this.maxRows && this.waitingBytes < this.maxWaitingBytes;
  }

  private next(): void {
    if (this.running || this.waiting.length === 0) {
      return;
    }
    this.running = true;
    const { group, bytes } = this.take();
    const insert: BatchInsert = {
      kind: group[0].kind,
      generation: group[0].generation,
      bytes,
      rows: group.flatMap((b) => b.rows),
      rejected: group.flatMap((b) => b.rejected),
      token: sharedToken(group.map((b) => b.token)),
    };
    // Through a promise even if `write` throws at once: the queue never stalls with `running` left set.
    void Promise.resolve()
      .then(() => this.write(insert))
      .then(
        () => group.forEach((b) => b.resolve()),
        (err: unknown) => group.forEach((b) => b.reject(err)),
      )
      .finally(() => {
        this.running = false;
        this.next();
      });
  }

  /**
   * The longest run of waiting batches of the first one's kind and generation within maxRows (the first always), and
   * the bytes of their messages; both leave the waiting counts.
   */
  private take(): { group: Waiting[]; bytes: number } {
    const [head] = this.waiting;
    let rows = 0;
    let bytes = 0;
    let n = 0;
    for (const b of this.waiting) {
      const size = b.rows.length + b.rejected.length;
      if (n > 0 && (b.kind !== head.kind || b.generation !== head.generation || rows + size > this.maxRows)) {
        break;
      }
      rows += size;
      bytes += b.bytes;
      n++;
    }
    this.waitingRows -= rows;
    this.waitingBytes -= bytes;
    return { group: this.waiting.splice(0, n), bytes };
  }
}
