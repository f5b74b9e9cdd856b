import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule, ProvisioningService } from '@app/auth';
import { ClickHouseModule } from '@app/clickhouse';
import { ConfigModule, configOrExit, type AppConfig } from '@app/config';
import { NAME_PATTERN } from '@app/contracts';
import { IntakeModule, SearchEventsRepository } from '@app/intake';
import { MetricsModule } from '@app/metrics';
import { NotificationsModule } from '@app/notifications';

const USAGE = 'usage: npm run cli -- customer:create <name> [--instances live,stage]\n       npm run cli -- stats <customer>';

/**
 * Operator commands. In the embedded deployment the data directory belongs to one process: stop the
 * service before running the CLI against the same DATA_DIR.
 */
async function main(argv: string[]): Promise<number> {
  const [command, name, ...rest] = argv;
  if (command === 'customer:create' && name) return createCustomer(name, rest);
  if (command === 'stats' && name) return stats(name);
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

async function withContext<T>(
  config: AppConfig,
  work: (ctx: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>) => Promise<T>,
): Promise<T> {
  @Module({ imports: [ConfigModule.forRoot(config), ClickHouseModule, AuthModule, NotificationsModule, MetricsModule, IntakeModule] })
  class CliModule {}
  const ctx = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

async function createCustomer(name: string, rest: string[]): Promise<number> {
  const i = rest.indexOf('--instances');
  const instances = i >= 0 ? (rest[i + 1] ?? '').split(',').filter(Boolean) : ['live'];
  const bad = [name, ...instances].filter((n) => !NAME_PATTERN.test(n));
  if (bad.length > 0 || instances.length === 0) {
    process.stderr.write(`not a lower-case DNS label: ${bad.join(', ') || '(no instances)'}\n${USAGE}\n`);
    return 2;
  }
  return withContext(configOrExit(), async (ctx) => {
    try {
      const c = await ctx.get(ProvisioningService).createCustomer(name, instances);
      process.stdout.write(
        `customer ${c.customer} created (instances: ${c.instances.join(', ')}); shown only now:\n` +
          `  Basic login:    ${c.basicLogin}\n  Basic password: ${c.basicPassword}\n  Legacy secret:  ${c.legacySecret}\n`,
      );
      return 0;
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return 1;
    }
  });
}

/** Stored events, rollup sum and rejected events of a customer, as JSON (for operators and tests). */
async function stats(customer: string): Promise<number> {
  return withContext(configOrExit(), async (ctx) => {
    process.stdout.write(`${JSON.stringify(await ctx.get(SearchEventsRepository).counts(customer))}\n`);
    return 0;
  });
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
