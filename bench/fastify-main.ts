/**
 * The embedded app on Nest's Fastify adapter, for `npm run bench:adapters` only: the service runs on Express
 * (docs/decisions.md says why). Serves what GET /search-terms needs: the same modules, guard, pipes and filter.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { configOrExit } from '@app/query/serve';
import { StandaloneModule } from '../apps/standalone/src/standalone.module';

async function main(): Promise<void> {
  const config = configOrExit();
  const app = await NestFactory.create<NestFastifyApplication>(StandaloneModule.forRoot(config), new FastifyAdapter(), { logger: false });
  app.enableShutdownHooks();
  await app.listen(config.port, '127.0.0.1');
}

void main();
