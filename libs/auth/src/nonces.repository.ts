import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClickHouseService, listParamChars, MAX_LIST_PARAM_CHARS, Rounds } from '@app/clickhouse';
import { compositeKey } from '@app/contracts';
import { RetryLaterError } from '@app/errors';

interface Use {
  customer: string;
  nonce: string;
}

/**
 * Nonces seen in the last 24 h, per customer: an in-process cache in front of a shared table, so a replay is refused
 * by every process. Neither is touched once per request:
 * - reads: the nonces of the requests arriving together are looked up in one query, at most one every
 *   READ_INTERVAL_MS (a request waits for the next one);
 * - writes: accepted nonces are written in one insert at most every WRITE_INTERVAL_MS (1 s), after their requests
 *   were answered.
 * So this process always refuses a replay (the cache holds every nonce it accepted until long after it is written),
 * while another process can accept a replay that arrives before the write: within WRITE_INTERVAL_MS of the first
 * use (docs/decisions/0038-nonces-in-batches.md). The cache is bounded; nonces older than it are found in
 * the table.
 */
@Injectable()
export class NoncesRepository implements BeforeApplicationShutdown {
  static readonly WINDOW_MS = 24 * 60 * 60 * 1000;
  static readonly READ_INTERVAL_MS = 50;
  static readonly WRITE_INTERVAL_MS = 1_000;
  /** About 15 minutes at 1,000 signed requests a second; a nonce is written within a second of its use. */
  static readonly CACHE_SIZE = 1_000_000;
  /** Nonces kept for a later write while storage fails. */
  static readonly MAX_UNWRITTEN = 100_000;

  private readonly logger = new Logger(NoncesRepository.name);
  private readonly recent = new LRUCache<string, true>({ max: NoncesRepository.CACHE_SIZE, ttl: NoncesRepository.WINDOW_MS });
  /** Requests of the same moment share a lookup; the interval bounds lookups per second. */
  private readonly lookups = new Rounds<Use, boolean>((round) => this.lookUp(round), {
    minIntervalMs: NoncesRepository.READ_INTERVAL_MS,
    // A server gets the nonces in the request's URL: a lookup takes what fits.
    maxSize: MAX_LIST_PARAM_CHARS,
    size: (u) => listParamChars(u.nonce),
  });
  private unwritten: Array<{ customer: string; nonce: string; used_at: number }> = [];
  private writeTimer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly ch: ClickHouseService) {}

  /**
   * Whether this process has seen the nonce in the last 24 h: asked before a body is read, from memory only, so a
   * request whose signature is not verified yet never costs a storage query.
   */
  seen(customer: string, nonce: string): boolean {
    return this.recent.has(compositeKey(customer, nonce));
  }

  /**
   * Records the nonce of a request whose signature matched and returns true, or returns false when it was used
   * before: by this process (also a request with the same nonce a moment ago) or, through the shared table, by
   * another.
   */
  use(customer: string, nonce: string): Promise<boolean> {
    const key = compositeKey(customer, nonce);
    if (this.recent.has(key)) {
      return Promise.resolve(false);
    }
    this.recent.set(key, true);
    return this.lookups.add({ customer, nonce }).catch((err: unknown) => {
      // Storage failed: the request fails (503) and its nonce may be used again.
      this.recent.delete(key);
      throw err;
    });
  }

  /** Writes the accepted nonces not written yet (before shutdown, while storage is still open; and for tests). */
  async flush(): Promise<void> {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    await this.lookups.idle();
    const rows = this.unwritten;
    this.unwritten = [];
    this.writing = this.writing.then(() => this.write(rows));
    await this.writing;
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.flush();
  }

  /** One query for the nonces of a round; the fresh ones are written with the next write. */
  private async lookUp(round: readonly Use[]): Promise<boolean[]> {
    let used: Set<string>;
    try {
      used = await this.usedAmong(round);
    } catch (err) {
      this.logger.error(`the lookup of ${round.length} nonce(s) failed: ${(err as Error).message}`);
      throw new RetryLaterError('Storage is unavailable; nothing of this request was accepted, retry later', 1, 'unavailable');
    }
    const fresh = round.map((u) => !used.has(compositeKey(u.customer, u.nonce)));
    const usedAt = Math.floor(Date.now() / 1000);
    for (const [i, u] of round.entries()) {
      if (fresh[i]) {
        this.unwritten.push({ customer: u.customer, nonce: u.nonce, used_at: usedAt });
      }
    }
    this.scheduleWrite();
    return fresh;
  }

  private async usedAmong(round: readonly Use[]): Promise<Set<string>> {
    // In a lane of its own (on the embedded engine, a connection of its own): the lookup of waiting requests never
    // queues behind an insert or an analytics query.
    const rows = await this.ch.inLane(
      () =>
        this.ch.query<{ customer: string; nonce: string }>(
          // Both lists on the table's key; a pair of one request's customer and another's nonce only marks that pair.
          `SELECT customer, nonce FROM ${this.ch.table('used_nonces')}
           WHERE customer IN {customers:Array(String)} AND nonce IN {nonces:Array(String)} AND used_at > now() - INTERVAL 1 DAY`,
          { customers: [...new Set(round.map((w) => w.customer))], nonces: round.map((w) => w.nonce) },
        ),
      { maxThreads: 1 },
    );
    return new Set(rows.map((r) => compositeKey(r.customer, r.nonce)));
  }

  private scheduleWrite(): void {
    if (this.writeTimer || this.unwritten.length === 0) {
      return;
    }
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      const rows = this.unwritten;
      this.unwritten = [];
      this.writing = this.writing.then(() => this.write(rows));
    }, NoncesRepository.WRITE_INTERVAL_MS);
    this.writeTimer.unref();
  }

  /**
   * One insert. Nonces whose insert failed stay refused by this process (they are in its cache) and are tried again
   * with the next write, up to MAX_UNWRITTEN of them.
   */
  private async write(rows: Array<{ customer: string; nonce: string; used_at: number }>): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    try {
      await this.ch.insert('used_nonces', rows);
    } catch (err) {
      this.logger.warn(`${rows.length} used nonce(s) not written to the shared table yet: ${(err as Error).message}`);
      const kept = [...rows, ...this.unwritten];
      const dropped = kept.length - NoncesRepository.MAX_UNWRITTEN;
      if (dropped > 0) {
        this.logger.error(`${dropped} used nonce(s) dropped unwritten: only this process refuses them now (docs/security.md)`);
      }
      this.unwritten = kept.slice(-NoncesRepository.MAX_UNWRITTEN);
      this.scheduleWrite();
    }
  }
}
