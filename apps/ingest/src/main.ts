import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { configOrExit } from '@app/query/serve';
import { IngestAppModule } from './ingest-app.module';

async function main(): Promise<void> {
  const config = configOrExit();
  if (!config.kafka.brokers) {
    process.stderr.write('Invalid configuration:\n  KAFKA_BROKERS must be set for the ingest app\n');
    process.exit(1);
  }
  const app = await NestFactory.createApplicationContext(IngestAppModule.forRoot(config));
  app.enableShutdownHooks();
}

void main();
