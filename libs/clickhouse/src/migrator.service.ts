import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ClickHouseService } from './clickhouse.service';
import { MIGRATIONS, RETENTION_TTL, type Migration } from './migrations';
import { chDateTime } from '@app/contracts';

/** Applies the ordered migrations at start-up and records each; running it twice changes nothing. */
@Injectable()
export class MigratorService implements OnModuleInit {
  private readonly logger = new Logger(MigratorService.name);
  private ready = false;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
  ) {}

  get migrated(): boolean {
    return this.ready;
  }

  async onModuleInit(): Promise<void> {
    await this.migrate(MIGRATIONS);
  }

  async migrate(migrations: readonly Migration[]): Promise<string[]> {
    await this.ch.command(`CREATE DATABASE IF NOT EXISTS \`${this.ch.database}\``);
    await this.ch.command(`CREATE TABLE IF NOT EXISTS ${this.ch.table('schema_migrations')} (
      id String, applied_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree ORDER BY id`);
    const applied = new Set(
      (await this.ch.query<{ id: string }>(`SELECT DISTINCT id FROM ${this.ch.table('schema_migrations')}`)).map((r) => r.id),
    );
    const ctx = { table: (name: string) => this.ch.table(name), retentionDays: this.config.retentionDays };
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      for (const statement of migration.statements(ctx)) await this.ch.command(statement);
      await this.ch.insert('schema_migrations', [{ id: migration.id, applied_at: chDateTime() }]);
      done.push(migration.id);
      this.logger.log(`applied migration ${migration.id}`);
    }
    await this.alignRetention();
    this.ready = true;
    return done;
  }

  /**
   * Makes the tables' TTL follow RETENTION_DAYS. Only a changed value is altered, and without rewriting
   * existing parts at once (materialize_ttl_after_modify = 0): merges apply it over time.
   */
  private async alignRetention(): Promise<void> {
    const days = this.config.retentionDays;
    const tables = await this.ch.query<{ name: string; engine_full: string }>(
      `SELECT name, engine_full FROM system.tables WHERE database = {db:String} AND name IN {names:Array(String)}`,
      { db: this.ch.database, names: Object.keys(RETENTION_TTL) },
    );
    for (const { name, engine_full } of tables) {
      const current = /toIntervalDay\((\d+)\)/.exec(engine_full)?.[1];
      if (current === String(days)) continue;
      await this.ch.command(
        `ALTER TABLE ${this.ch.table(name)} MODIFY TTL ${RETENTION_TTL[name]} + toIntervalDay(${days}) SETTINGS materialize_ttl_after_modify = 0`,
      );
      this.logger.log(`retention of ${name} set to ${days} days (was ${current ?? 'unset'})`);
    }
  }
}
