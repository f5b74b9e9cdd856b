import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ClickHouseService } from './clickhouse.service';
import { MigrationLock } from './migration-lock';
import { pendingMigrations } from './pending-migrations';
import { checkCluster } from './cluster/check-cluster';
import { ClickHouseCluster } from './cluster/clickhouse-cluster.service';
import { clusterStatements, storedName } from './cluster/cluster-ddl';
import { MIGRATIONS, RETENTION_TTL, type Migration } from './migrations';
import { chDateTime } from '@app/contracts';

/**
 * Applies the ordered migrations at start-up and records each; running it twice changes nothing, and processes
 * starting together apply each migration once (a lock across processes).
 */
@Injectable()
export class MigratorService implements OnModuleInit {
  private readonly logger = new Logger(MigratorService.name);
  private ready = false;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
    private readonly cluster: ClickHouseCluster = new ClickHouseCluster(ch, config),
  ) {}

  get migrated(): boolean {
    return this.ready;
  }

  /** The migrations this process applied (none where another process did, or nothing was pending). */
  readonly applied: string[] = [];

  /**
   * Migrates, or with MIGRATE_ON_START=false only checks that nothing is pending (the app's start waited for that,
   * see waitForMigrations in libs/http; `npm run cli -- migrate` applies them).
   */
  async onModuleInit(): Promise<void> {
    await checkCluster(this.ch, this.config.clickhouse.cluster);
    if (this.config.migrateOnStart) {
      await this.migrate(MIGRATIONS);
      return;
    }
    const [first] = await pendingMigrations(this.ch, MIGRATIONS);
    if (first !== undefined) {
      throw new Error(`migration ${first.id} is pending and MIGRATE_ON_START=false: run \`npm run cli -- migrate\``);
    }
    this.ready = true;
  }

  /**
   * Applies the migrations not yet recorded. Several processes may start together (two ingest apps and the query
   * app on a fresh server): one takes the migration lock and applies them, the others wait until they are
   * recorded (or take the lock over from a holder that died, see MigrationLock). Returns the ids applied here.
   */
  async migrate(migrations: readonly Migration[]): Promise<string[]> {
    // In cluster mode the record and the lock are read and written on the designated host, whichever host the URL
    // reaches: a host whose replica is behind never answers that a migration is still pending.
    const home = await this.cluster.designated();
    const pending = () => pendingMigrations(home, migrations);
    const done: string[] = [];
    if ((await pending()).length > 0) {
      // Only then on every host: a start with nothing to apply needs no host but the one it reads.
      await this.run(`CREATE DATABASE IF NOT EXISTS \`${this.ch.database}\``, true);
      await this.run(`CREATE TABLE IF NOT EXISTS ${this.ch.table('schema_migrations')} (
        id String, applied_at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree ORDER BY id`);
      const lock = new MigrationLock(home);
      if (await lock.acquire(async () => (await pending()).length === 0)) {
        try {
          // Read again under the lock: the previous holder may have applied some.
          done.push(...(await this.apply(await pending(), lock, home)));
        } finally {
          await lock.release();
        }
      }
    }
    await this.alignRetention();
    this.applied.push(...done);
    this.ready = true;
    return done;
  }

  private async apply(migrations: readonly Migration[], lock: MigrationLock, home: ClickHouseService): Promise<string[]> {
    const ctx = { table: (name: string) => this.ch.table(name), retentionDays: this.config.retentionDays };
    const done: string[] = [];
    for (const migration of migrations) {
      // A holder that stalled past the lease lost the lock to another process: stop rather than run beside it.
      if (!(await lock.held())) {
        throw new Error(`migration lock lost before ${migration.id}; another process continues`);
      }
      for (const statement of migration.statements(ctx)) {
        await this.run(statement);
      }
      await home.insert('schema_migrations', [{ id: migration.id, applied_at: chDateTime() }]);
      done.push(migration.id);
      this.logger.log(`applied migration ${migration.id}`);
    }
    return done;
  }

  /**
   * A statement of the schema: on the one server as written; in cluster mode as clusterStatements places it (a database
   * is created on every host).
   */
  private async run(statement: string, everyHost = false): Promise<void> {
    const layout = this.cluster.layout;
    if (layout === undefined) {
      return this.ch.command(statement);
    }
    const placed = everyHost ? [{ on: 'every-host' as const, sql: statement }] : clusterStatements(statement, layout);
    for (const p of placed) {
      await this.cluster.run(p);
    }
  }

  /**
   * Makes the tables' TTL follow RETENTION_DAYS. Only a changed value is altered, and without rewriting
   * existing parts at once (materialize_ttl_after_modify = 0): merges apply it over time.
   */
  private async alignRetention(): Promise<void> {
    // In cluster mode every host's local tables (a Replicated table's change reaches its other replicas itself).
    const logical = new Map(Object.keys(RETENTION_TTL).map((name) => [storedName(name, this.cluster.layout), name]));
    for (const host of await this.cluster.hosts()) {
      try {
        await this.alignRetentionOn(host.ch, logical);
      } catch (err) {
        if (this.cluster.layout === undefined) {
          throw err;
        }
        // A cluster host that is down keeps its retention until a start finds it up.
        this.logger.warn(`retention not aligned on ${host.url}: ${(err as Error).message}`);
      }
    }
  }

  /** The TTL of one host's tables (`logical`: each table as stored there, to its name in RETENTION_TTL). */
  private async alignRetentionOn(ch: ClickHouseService, logical: Map<string, string>): Promise<void> {
    const days = this.config.retentionDays;
    const tables = await ch.query<{ name: string; engine_full: string }>(
      `SELECT name, engine_full FROM system.tables WHERE database = {db:String} AND name IN {names:Array(String)}`,
      { db: ch.database, names: [...logical.keys()] },
    );
    for (const { name, engine_full } of tables) {
      const current = /toIntervalDay\((\d+)\)/.exec(engine_full)?.[1];
      if (current === String(days)) {
        continue;
      }
      await ch.command(
        `ALTER TABLE ${ch.table(name)} MODIFY TTL ${RETENTION_TTL[logical.get(name)!]} + toIntervalDay(${days})
         SETTINGS materialize_ttl_after_modify = 0`,
      );
      this.logger.log(`retention of ${name} set to ${days} days (was ${current ?? 'unset'})`);
    }
  }
}
