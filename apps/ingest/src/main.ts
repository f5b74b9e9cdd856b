import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { IngestAppModule } from './ingest-app.module';

/** The ingest app: consumes Kafka; serves only /health and /metrics on HOST:PORT. */
void startHttpApp((config) => IngestAppModule.forRoot(config), {
  refuse: (config) => (config.kafka.brokers ? undefined : 'KAFKA_BROKERS must be set for the ingest app'),
});
