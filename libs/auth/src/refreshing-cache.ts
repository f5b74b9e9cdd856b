import { LRUCache } from 'lru-cache';

/** A cached credential entry older than this is read again in the background, while requests keep using it. */
export const CREDENTIALS_REFRESH_MS = 1_000;
/**
 * A cached credential entry is never used when older than this (its age counted from the start of the read that
 * filled it): a request then waits for a fresh read. A key revoked or a customer changed by another process is seen
 * within this time.
 */
export const CREDENTIALS_MAX_AGE_MS = 2_000;

interface Entry<V> {
  value: V;
  /** When the read that gave the value started: the value is at least this fresh. */
  readAt: number;
}

/**
 * Credentials in memory, read again ahead of need: an entry younger than `refreshMs` is used as it is; one between
 * `refreshMs` and `maxAgeMs` is used too while one background read replaces it; an older one (or none) is waited
 * for. So under steady traffic no request waits for the engine, and however many requests arrive at once, one read
 * per key is under way. A read that answers undefined (unknown) is not kept; a failed background read leaves the entry
 * in use until its maximum age.
 */
export class RefreshingCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly reading = new Map<string, Promise<V | undefined>>();
  private readonly refreshMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly read: (key: string) => Promise<V | undefined>,
    options: { max?: number; refreshMs?: number; maxAgeMs?: number; now?: () => number } = {},
  ) {
    this.entries = new LRUCache({ max: options.max ?? 10_000 });
    this.refreshMs = options.refreshMs ?? CREDENTIALS_REFRESH_MS;
    this.maxAgeMs = options.maxAgeMs ?? CREDENTIALS_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  get(key: string): Promise<V | undefined> {
    const entry = this.entries.get(key);
    const age = entry ? this.now() - entry.readAt : Infinity;
    if (entry && age < this.maxAgeMs) {
      if (age >= this.refreshMs) {
        // The failure reaches nobody: the entry stays in use until its maximum age, then a request's read reports it.
        this.readAgain(key).catch(() => undefined);
      }
      return Promise.resolve(entry.value);
    }
    return this.readAgain(key);
  }

  /**
   * Forgets the key, after this process changed what it caches: the next get reads it, and a read under way keeps
   * its answer (read before the change) out of the cache.
   */
  delete(key: string): void {
    this.entries.delete(key);
    this.reading.delete(key);
  }

  /** One read per key at a time; its answer is kept unless the key was deleted meanwhile. */
  private readAgain(key: string): Promise<V | undefined> {
    const running = this.reading.get(key);
    if (running) {
      return running;
    }
    const readAt = this.now();
    const pending: Promise<V | undefined> = this.read(key)
      .then((value) => {
        if (this.reading.get(key) === pending) {
          if (value === undefined) {
            this.entries.delete(key);
          } else {
            this.entries.set(key, { value, readAt });
          }
        }
        return value;
      })
      .finally(() => {
        if (this.reading.get(key) === pending) {
          this.reading.delete(key);
        }
      });
    this.reading.set(key, pending);
    return pending;
  }
}
