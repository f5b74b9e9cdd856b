import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ClickHouseService } from './clickhouse.service';

/** How long a holder may go without a heartbeat before another process takes the lock over. */
export const MIGRATION_LOCK_LEASE_MS = 60_000;
const HEARTBEAT_MS = 5_000;
const POLL_MS = 100;
const TABLE_ALREADY_EXISTS = '57';
const LOCK = 'schema_migrations_lock';

/**
 * A lock across processes on the same storage (embedded engine or server), for migrations: the holder is whoever
 * created the lock table (CREATE TABLE without IF NOT EXISTS succeeds once), named in the table's comment. The
 * holder appends a heartbeat row every 5 s, stamped with the store's clock; a lock whose holder has not beaten for
 * MIGRATION_LOCK_LEASE_MS is taken over by renaming the table to a name derived from that holder (only one
 * rename of it can succeed) and creating it anew. The holder drops the table when done.
 *
 * On the embedded engine only one process opens a data directory at a time, so a lock taken before this process
 * started was left by a process that ended (killed mid-migration): it is taken over at once, not after the lease.
 */
export class MigrationLock {
  private readonly logger = new Logger(MigrationLock.name);
  private readonly holder = randomUUID();
  private heartbeat?: NodeJS.Timeout;

  constructor(private readonly ch: ClickHouseService) {}

  private get table(): string {
    return this.ch.table(LOCK);
  }

  /**
   * Takes the lock, or returns false as soon as `done()` says there is nothing left to do (another process did
   * it while this one waited).
   */
  async acquire(done: () => Promise<boolean>): Promise<boolean> {
    for (;;) {
      if (await this.tryCreate()) {
        return true;
      }
      if (await done()) {
        return false;
      }
      await this.takeOverIfStale();
      await new Promise((r) => setTimeout(r, POLL_MS + Math.random() * POLL_MS));
    }
  }

  /** Whether this process still holds the lock (it may have lost it after stalling longer than the lease). */
  async held(): Promise<boolean> {
    return (await this.currentHolder()) === this.holder;
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    if (await this.held()) {
      await this.ch.command(`DROP TABLE IF EXISTS ${this.table} SYNC`);
    }
  }

  private async tryCreate(): Promise<boolean> {
    try {
      // The holder is a UUID of this process, safe to write into the statement (DDL takes no parameters).
      await this.ch.command(
        `CREATE TABLE ${this.table} (holder String, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY tuple() COMMENT '${this.holder}'`,
      );
    } catch (err) {
      if ((err as { code?: string }).code === TABLE_ALREADY_EXISTS) {
        return false;
      }
      throw err;
    }
    await this.beat();
    this.heartbeat = setInterval(() => {
      this.beat().catch((err: Error) => this.logger.warn(`migration lock heartbeat failed: ${err.message}`));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    return true;
  }

  private beat(): Promise<void> {
    // The store's clock, so holders and waiters compare times from one clock; a token of its own (chdb session).
    return this.ch.command(
      `INSERT INTO ${this.table} (holder, at) SELECT {holder:String}, now64(3) SETTINGS insert_deduplication_token = '${randomUUID()}'`,
      { holder: this.holder },
    );
  }

  private async currentHolder(): Promise<string | undefined> {
    const rows = await this.ch.query<{ comment: string }>(
      `SELECT comment FROM system.tables WHERE database = {db:String} AND name = {name:String}`,
      {
        db: this.ch.database,
        name: LOCK,
      },
    );
    return rows[0]?.comment;
  }

  private async takeOverIfStale(): Promise<void> {
    try {
      const holder = await this.currentHolder();
      if (!holder) {
        return;
      }
      if (this.ch.embedded && (await this.takenBeforeThisProcess(holder))) {
        await this.takeOver(holder, 'left by a process that ended');
        return;
      }
      // The last heartbeat; a holder that died between CREATE and its first heartbeat is judged by the table's age.
      const [{ silent_ms }] = await this.ch.query<{ silent_ms: string }>(
        `SELECT toString(dateDiff('millisecond', ifNull(
           (SELECT max(at) FROM ${this.table} WHERE holder = {holder:String} HAVING count() > 0),
           (SELECT toDateTime64(any(metadata_modification_time), 3, 'UTC') FROM system.tables
            WHERE database = {db:String} AND name = {name:String})),
           now64(3, 'UTC'))) AS silent_ms`,
        { holder, db: this.ch.database, name: LOCK },
      );
      if (Number(silent_ms) <= MIGRATION_LOCK_LEASE_MS) {
        return;
      }
      await this.takeOver(holder, `silent for ${silent_ms} ms`);
    } catch (err) {
      // The lock was released or taken over meanwhile: the next round sees the new state.
      this.logger.debug?.(`migration lock check: ${(err as Error).message}`);
    }
  }

  /**
   * Whether the holder's first heartbeat is older than this process (the table's own times are of when this
   * process's engine loaded it); a holder that died before its first heartbeat waits for the lease.
   */
  private async takenBeforeThisProcess(holder: string): Promise<boolean> {
    const started = Date.now() - process.uptime() * 1000;
    const [row] = await this.ch.query<{ before: number }>(
      `SELECT count() > 0 AND toUnixTimestamp64Milli(min(at)) < {started:Int64} AS before FROM ${this.table}
       WHERE holder = {holder:String}`,
      { started: Math.floor(started), holder },
    );
    return Boolean(row?.before);
  }

  private async takeOver(holder: string, why: string): Promise<void> {
    this.logger.warn(`migration lock of ${holder} ${why}: taking it over`);
    // Renaming to a name derived from the stale holder succeeds once, so two waiters cannot both take it over.
    await this.ch.command(`RENAME TABLE ${this.table} TO ${this.ch.table(`${LOCK}_stale_${holder.replace(/[^0-9a-f]/g, '')}`)}`);
  }
}
