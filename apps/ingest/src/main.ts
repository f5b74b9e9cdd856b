import 'reflect-metadata';
import { createHttpApp } from '@app/http';
import { configOrExit } from '@app/query/serve';
import { IngestAppModule } from './ingest-app.module';

/** The ingest app: consumes Kafka; serves only /health and /metrics on HOST:PORT. */
async function main(): Promise<void> {
  const config = configOrExit();
  if (!config.kafka.brokers) {
    process.stderr.write('Invalid configuration:\n  KAFKA_BROKERS must be set for the ingest app\n');
    process.exit(1);
  }
  const app = await createHttpApp(IngestAppModule.forRoot(config), config);
  await app.listen(config.port, config.host);
}

void main();
