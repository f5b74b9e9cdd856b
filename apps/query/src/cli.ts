import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule, ProvisioningService } from '@app/auth';
import { ClickHouseModule } from '@app/clickhouse';
import { ConfigModule, NAME_PATTERN } from '@app/config';
import { configOrExit } from './serve';

const USAGE = 'usage: npm run cli -- customer:create <name> [--instances live,stage]';

/**
 * Operator commands. In the embedded deployment the data directory belongs to one process: stop the
 * service before running the CLI against the same DATA_DIR.
 */
async function main(argv: string[]): Promise<number> {
  const [command, name, ...rest] = argv;
  if (command !== 'customer:create' || !name) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const i = rest.indexOf('--instances');
  const instances = i >= 0 ? (rest[i + 1] ?? '').split(',').filter(Boolean) : ['live'];
  const bad = [name, ...instances].filter((n) => !NAME_PATTERN.test(n));
  if (bad.length > 0 || instances.length === 0) {
    process.stderr.write(`not a lower-case DNS label: ${bad.join(', ') || '(no instances)'}\n${USAGE}\n`);
    return 2;
  }
  const config = configOrExit();
  @Module({ imports: [ConfigModule.forRoot(config), ClickHouseModule, AuthModule] })
  class CliModule {}
  const ctx = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
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
  } finally {
    await ctx.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
