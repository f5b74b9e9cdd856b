import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ClickHouseService } from './clickhouse.service';
import { MIGRATIONS, type Migration } from './migrations';
import { chDateTime } from './version-clock';

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
    this.ready = true;
    return done;
  }
}
