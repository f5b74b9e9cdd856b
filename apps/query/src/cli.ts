import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule, ProvisioningService } from '@app/auth';
import { ClickHouseCluster, ClickHouseModule, ClickHouseService, MIGRATIONS, holdDataDir, pendingMigrations } from '@app/clickhouse';
import { ConfigModule, configOrExit, type AppConfig } from '@app/config';
import { NAME_PATTERN } from '@app/contracts';
import { IntakeModule, SearchEventsRepository } from '@app/intake';
import { MetricsModule } from '@app/metrics';
import { NotificationsModule } from '@app/notifications';

import { adoptIntoCluster } from './cluster-adopt';

const USAGE = [
  'usage: npm run cli -- customer:create <name> [--instances live,stage]',
  '       npm run cli -- credentials:reset [customer]',
  '       npm run cli -- stats <customer>',
  '       npm run cli -- totals <customer>',
  '       npm run cli -- migrate',
  '       npm run cli -- cluster:adopt --from <url of the single server>',
].join('\n');

/** Exit code of a command refused because another process holds the data directory. */
const DATA_DIR_HELD = 3;

/**
 * Operator commands. In the embedded deployment the data directory belongs to one process: a command is refused
 * while a service runs on the same DATA_DIR (stop it first).
 */
async function main(argv: string[]): Promise<number> {
  // The commands read and change the tables as they are: the storage check (which repairs at start) is the services'.
  process.env.STORAGE_CHECK_MS = '0';
  const [command, name, ...rest] = argv;
  if (command === 'customer:create' && name) {
    return createCustomer(name, rest);
  }
  if (command === 'credentials:reset' && rest.length === 0) {
    return resetCredentials(name);
  }
  if (command === 'stats' && name) {
    return stats(name);
  }
  if (command === 'totals' && name) {
    return totals(name);
  }
  if (command === 'migrate' && name === undefined) {
    return migrate();
  }
  if (command === 'cluster:adopt' && name === '--from' && rest.length === 1) {
    return adopt(rest[0]);
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

type CliContext = Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;

/** Runs `work` with the services, the data directory held by this process; refused while another process holds it. */
async function withContext(config: AppConfig, work: (ctx: CliContext) => Promise<number>): Promise<number> {
  const hold = holdDataDir(config);
  if (hold === 'held') {
    process.stderr.write(
      `DATA_DIR ${config.dataDir} is in use by another process (a running service?); nothing was changed. ` +
        'Stop that process, then run the command again.\n',
    );
    return DATA_DIR_HELD;
  }
  @Module({ imports: [ConfigModule.forRoot(config), ClickHouseModule, AuthModule, NotificationsModule, MetricsModule, IntakeModule] })
  class CliModule {}
  try {
    const ctx = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
    try {
      return await work(ctx);
    } finally {
      await ctx.close();
    }
  } finally {
    hold.release();
  }
}

/** Runs a provisioning step; the refusal it throws (an existing or unknown customer) is the one line on stderr. */
async function provisioning(config: AppConfig, step: (service: ProvisioningService) => Promise<string>): Promise<number> {
  return withContext(config, async (ctx) => {
    try {
      process.stdout.write(await step(ctx.get(ProvisioningService)));
      return 0;
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return 1;
    }
  });
}

async function createCustomer(name: string, rest: string[]): Promise<number> {
  const i = rest.indexOf('--instances');
  const instances = i >= 0 ? (rest[i + 1] ?? '').split(',').filter(Boolean) : ['live'];
  const bad = [name, ...instances].filter((n) => !NAME_PATTERN.test(n));
  if (bad.length > 0 || instances.length === 0) {
    process.stderr.write(`not a lower-case DNS label: ${bad.join(', ') || '(no instances)'}\n${USAGE}\n`);
    return 2;
  }
  return provisioning(configOrExit(), async (service) => {
    const c = await service.createCustomer(name, instances);
    return (
      `customer ${c.customer} created (instances: ${c.instances.join(', ')}); shown only now:\n` +
      `  Basic login:    ${c.basicLogin}\n  Basic password: ${c.basicPassword}\n  Legacy secret:  ${c.legacySecret}\n`
    );
  });
}

/** New Basic credentials for a customer (SERVICE_CUSTOMER without one); the old password stops working. */
async function resetCredentials(name: string | undefined): Promise<number> {
  const config = configOrExit();
  const customer = name ?? config.customer;
  if (!NAME_PATTERN.test(customer)) {
    process.stderr.write(`not a lower-case DNS label: ${customer}\n${USAGE}\n`);
    return 2;
  }
  return provisioning(config, async (service) => {
    const c = await service.resetBasic(customer);
    return (
      `new Basic credentials for customer ${c.customer} (the old password no longer works); shown only now:\n` +
      `  Basic login:    ${c.basicLogin}\n  Basic password: ${c.basicPassword}\n`
    );
  });
}

/** Stored events, rollup sum and rejected events of a customer, as JSON (for operators and tests). */
async function stats(customer: string): Promise<number> {
  return withContext(configOrExit(), async (ctx) => {
    process.stdout.write(`${JSON.stringify(await ctx.get(SearchEventsRepository).counts(customer))}\n`);
    return 0;
  });
}

/** A customer's raw search events (sum(sign)) beside what each rollup counts, as JSON: equal when storage is exact. */
async function totals(customer: string): Promise<number> {
  return withContext(configOrExit(), async (ctx) => {
    process.stdout.write(`${JSON.stringify(await ctx.get(SearchEventsRepository).rollupTotals(customer))}\n`);
    return 0;
  });
}

/**
 * Applies the pending migrations (the one-shot job of MIGRATE_ON_START=false: the apps wait for it) and says which
 * one is now the last; run again, it changes nothing.
 */
async function migrate(): Promise<number> {
  process.env.MIGRATE_ON_START = 'true';
  return withContext(configOrExit(), async (ctx) => {
    const ch = ctx.get(ClickHouseService);
    const [pending] = await pendingMigrations(ch, MIGRATIONS);
    process.stdout.write(
      pending ? `migration ${pending.id} is still pending\n` : `every migration is applied (the last: ${MIGRATIONS.at(-1)!.id})\n`,
    );
    return pending ? 1 : 0;
  });
}

/** Moves a single server's tables into the cluster (adoptIntoCluster), migrating the cluster first. */
async function adopt(from: string): Promise<number> {
  process.env.MIGRATE_ON_START = 'true';
  const config = configOrExit();
  return withContext(config, async (ctx) => {
    try {
      const adopted = await adoptIntoCluster(config, ctx.get(ClickHouseCluster), from);
      process.stdout.write(adopted.map((t) => `${t.table}: ${t.rows} rows (${t.how})\n`).join(''));
      return 0;
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return 1;
    }
  });
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
