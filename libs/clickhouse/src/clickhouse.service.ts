import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { AppConfig } from '@app/config';
import { StorageLimitError, StorageUnavailableError } from '@app/errors';
import { ClickHouseClientLogger } from './clickhouse-client-logger';
import { inlineParams, withSettings } from './sql-literals';
import { InsertSettings, insertSettings } from './insert-settings';
import { insertTarget } from './insert-target';
import { CLUSTER_SETTINGS } from './cluster/cluster-settings';

export type QueryParams = Record<string, unknown>;

/** The client's own warnings and errors, as lines of the service's log (not its console dumps). */
const CLIENT_LOG = { LoggerClass: ClickHouseClientLogger, level: ClickHouseLogLevel.WARN };

/**
 * Connections a server client keeps for inserts alone (a pool apart from queries'): an insert is sent when it is
 * handed over, never queued behind queries for a socket. The ingest consumer confirms its group membership right before
 * handing an insert over and keeps fewer inserts than this in flight (INSERTS_IN_FLIGHT): nothing waits in between.
 */
export const INSERT_CONNECTIONS = 16;

/** How long a storage ping's answer is reused by the probes (ClickHouseService.ping). */
export const PING_REUSE_MS = 1000;
/** Lanes of the embedded engine kept open while idle, for the next inLane; more are closed when they are done. */
const IDLE_LANES = 8;

/** How the queries of a lane run (ClickHouseService.inLane). */
export interface LaneOptions {
  /** The threads each query of the lane may use on the embedded engine (its max_threads). */
  maxThreads: number;
}

/** An embedded lane: a connection of its own, its queries one at a time (a connection runs one query at a time). */
interface Lane {
  client: ClickHouseClient;
  next: ReturnType<typeof pLimit>;
}

/** Told of every INSERT the service sends, with its table as table() takes it (set by whoever owns the metrics). */
export type InsertListener = (table: string) => void;

/** A failed read as the caller should see it: a memory limit as StorageLimitError, anything else as it is. */
function readFailure(err: unknown): never {
  // The client's ClickHouseError, by its fields: chdb's connection may bring its own copy of the class.
  if (err instanceof Error && (err as { type?: unknown }).type === 'MEMORY_LIMIT_EXCEEDED') {
    // The 503 alone would not tell an operator why (an AppError is not logged as a failure).
    new Logger(ClickHouseService.name).warn(`a read exceeded the memory limit, answered 503: ${err.message}`);
    throw new StorageLimitError(err.message);
  }
  throw err;
}

/**
 * The one ClickHouse client of the process: the embedded engine (chdb) in DATA_DIR when CLICKHOUSE_URL is
 * unset, a server over HTTP otherwise. Same client API, same SQL.
 *
 * Rules that keep both storages equivalent:
 * - every table is named through table(): the chdb connection ignores the client's `database` option;
 * - through chdb, clickhouse_settings become session-wide SETs, so every insert passes its own
 *   insert_deduplication_token (a fresh one where no deduplication is wanted) and other settings go into
 *   the SQL text, never into clickhouse_settings (a lane's max_threads too, see inLane);
 * - a query's SQL holds no SETTINGS clause of its own when it may run in a lane (the lane adds one).
 */
@Injectable()
export class ClickHouseService implements OnApplicationShutdown {
  private readonly logger = new Logger(ClickHouseService.name);
  readonly client: ClickHouseClient;
  /** The client inserts go through: on a server, its own connections (INSERT_CONNECTIONS); embedded, the one client. */
  readonly inserts: ClickHouseClient;
  readonly database: string;
  readonly embedded: boolean;
  private pending = 0;
  private closed = false;
  /** The last storage ping (ping()): when it began, whether it is in flight, its answer. */
  private pingAt = -Infinity;
  private pinging = false;
  private pingUp = Promise.resolve(false);
  /** The pinned insert settings this server knows, looked up once (see insertSettings). */
  private readonly knownInsertSettings = new InsertSettings(this);
  /** Embedded: opens another client on the engine's data directory (a lane's). */
  private readonly openClient?: () => ClickHouseClient;
  private readonly idleLanes: Lane[] = [];
  /** The lane the current async context runs in, with its SETTINGS clause (inLane). */
  private readonly currentLane = new AsyncLocalStorage<{ lane: Lane; settings: string }>();
  private readonly insertListeners: InsertListener[] = [];

  constructor(config: AppConfig) {
    this.database = config.clickhouse.database;
    this.embedded = !config.clickhouse.url;
    if (config.clickhouse.url) {
      const server = {
        url: config.clickhouse.url,
        username: config.clickhouse.user,
        password: config.clickhouse.password,
        request_timeout: 30_000,
        log: CLIENT_LOG,
        ...(config.clickhouse.cluster ? { clickhouse_settings: CLUSTER_SETTINGS } : {}),
      };
      this.client = createClient(server);
      this.inserts = createClient({ ...server, max_open_connections: INSERT_CONNECTIONS });
    } else {
      // Loaded only here so a server deployment never maps the embedded engine into memory.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a constructor cannot await import()
      const { createChdbConnection } = require('chdb/connection') as {
        createChdbConnection: (options: { path: string }) => NonNullable<Parameters<typeof createClient>[0]>['connection'];
      };
      this.openClient = () => createClient({ connection: createChdbConnection({ path: config.dataDir }), log: CLIENT_LOG });
      this.client = this.openClient();
      this.inserts = this.client;
    }
  }

  /** Fully qualified, quoted table name. The database name is validated as an identifier at start-up. */
  table(name: string): string {
    return `\`${this.database}\`.\`${name}\``;
  }

  /** Calls `listener` with the table of every INSERT statement sent from now on (insert(), and an INSERT by command()). */
  onInsert(listener: InsertListener): void {
    this.insertListeners.push(listener);
  }

  private sending(table: string): void {
    for (const listener of this.insertListeners) {
      listener(table);
    }
  }

  /** Counts operations in flight, so shutdown can wait for them; refuses new ones once closed. */
  private async run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) {
      throw new StorageUnavailableError();
    }
    this.pending++;
    try {
      return await operation();
    } finally {
      this.pending--;
    }
  }

  /**
   * Runs `work` with its queries (query, rawStream) in a lane of their own. On the embedded engine a lane is a
   * connection of its own, whose queries run one at a time, their parameters written into the SQL text as
   * literals and `SETTINGS max_threads` added: chdb runs one connection's queries one after another, and every
   * query that binds parameters, on any connection, one after another in the whole process (its binding is not
   * safe under concurrency: chdb's runExclusiveParam), so only a lane's queries run beside the others'. On a
   * server, `work` as it is: the server runs queries side by side and sets their threads itself.
   */
  async inLane<T>(work: () => Promise<T>, options: LaneOptions): Promise<T> {
    if (!this.openClient) {
      return work();
    }
    if (this.closed) {
      throw new StorageUnavailableError();
    }
    const lane = this.idleLanes.pop() ?? { client: this.openClient(), next: pLimit(1) };
    try {
      return await this.currentLane.run({ lane, settings: `SETTINGS max_threads = ${options.maxThreads}` }, work);
    } finally {
      if (this.closed || this.idleLanes.length >= IDLE_LANES) {
        void lane.client.close();
      } else {
        this.idleLanes.push(lane);
      }
    }
  }

  query<T>(sql: string, params: QueryParams = {}): Promise<T[]> {
    const current = this.currentLane.getStore();
    if (current) {
      const query = inlineParams(withSettings(sql, current.settings), params);
      return this.run(() =>
        current.lane.next(async () => (await current.lane.client.query({ query, format: 'JSONEachRow' })).json<T>()),
      ).catch(readFailure);
    }
    return this.run(async () => (await this.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<T>()).catch(
      readFailure,
    );
  }

  /**
   * The bytes of a query's answer as ClickHouse writes them (the query names its FORMAT), for answers passed on
   * without parsing: a server sends them as they come, the embedded engine hands over its result buffer. The
   * operation counts as in flight until the stream closes (read to the end, or destroyed by a client that left).
   */
  async rawStream(sql: string, params: QueryParams = {}): Promise<Readable> {
    if (this.closed) {
      throw new StorageUnavailableError();
    }
    this.pending++;
    try {
      const current = this.currentLane.getStore();
      const { stream } = current
        ? await current.lane.next(() => current.lane.client.exec({ query: inlineParams(withSettings(sql, current.settings), params) }))
        : await this.client.exec({ query: sql, query_params: params });
      stream.once('close', () => this.pending--);
      return stream;
    } catch (err) {
      this.pending--;
      return readFailure(err);
    }
  }

  /**
   * A statement without an answer. In a lane (inLane) it runs there, so that a long INSERT ... SELECT holds no other
   * query; its SETTINGS are appended, so an insert there is an INSERT ... SELECT, not INSERT ... VALUES.
   */
  async command(sql: string, params: QueryParams = {}): Promise<void> {
    const current = this.currentLane.getStore();
    await this.run(() => {
      const inserted = insertTarget(sql);
      if (inserted !== undefined) {
        this.sending(inserted);
      }
      return current
        ? current.lane.next(() => current.lane.client.command({ query: inlineParams(withSettings(sql, current.settings), params) }))
        : this.client.command({ query: sql, query_params: params });
    });
  }

  /**
   * Inserts rows, synchronously and with the semantics of insertSettings(). `dedupToken` makes a retry of the
   * same batch a no-op on tables with a deduplication window (in the rollups too); without one a fresh token is
   * sent, because a token left behind by an earlier insert would otherwise turn this insert into a silently
   * dropped "duplicate" (chdb session settings).
   */
  async insert<T extends object>(table: string, rows: readonly T[], dedupToken?: string): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    const known = await this.knownInsertSettings.names();
    const token = dedupToken ?? randomUUID();
    await this.run(() => {
      this.sending(table);
      return this.inserts.insert({
        table: this.table(table),
        values: rows,
        format: 'JSONEachRow',
        // The embedded engine keeps the pinned settings for its one session (set once, see InsertSettings.names):
        // its connection turns each setting into a SET statement parsed with the insert's whole body (measured:
        // five of them slowed a 50,000-row insert by a third). A server gets them all with every insert.
        clickhouse_settings: this.embedded ? { insert_deduplication_token: token } : insertSettings(known, token),
      });
    });
  }

  /**
   * Whether storage answers a query within 2 x PING_REUSE_MS (a bare ping would not prove the engine or the database
   * works), for the public probes (/health, /health/ready): one query in flight at a time, its answer reused for
   * PING_REUSE_MS after it began, so a flood of probes costs storage one query a second (on the embedded engine the
   * main connection is shared with inserts and credential lookups).
   */
  ping(): Promise<boolean> {
    if (!this.pinging && Date.now() - this.pingAt >= PING_REUSE_MS) {
      [this.pinging, this.pingAt] = [true, Date.now()];
      const up = Promise.race([this.query('SELECT 1 AS ok').then(() => true), sleep(2 * PING_REUSE_MS, false, { ref: false })]);
      this.pingUp = up.catch(() => false).finally(() => (this.pinging = false));
    }
    return this.pingUp;
  }

  /** Waits (up to 10 s) for operations in flight, then closes; later operations get StorageUnavailableError. */
  async onApplicationShutdown(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.pending > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    this.closed = true;
    try {
      await this.client.close();
      if (this.inserts !== this.client) {
        await this.inserts.close();
      }
      for (const lane of this.idleLanes.splice(0)) {
        await lane.client.close();
      }
      if (this.embedded) {
        const { drainPending } = await import('chdb');
        await drainPending();
      }
    } catch (err) {
      this.logger.warn(`closing ClickHouse failed: ${(err as Error).message}`);
    }
  }
}
