import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { IngestAppModule } from './ingest-app.module';

/**
 * The embedded engine's allocator (jemalloc) keeps freed pages for seconds, which an insert every second turns into
 * hundreds of MB held; the ingest app has it return them at once (measured on 35,000-row inserts: peak RSS 722 ->
 * 555 MB, the insert rate within noise). Not for the query app: its queries then ran at half the speed (the
 * ranking-mix check: p50 173 against 93 ms). Read when the engine loads; an operator's own setting wins.
 */
process.env.JE_MALLOC_CONF ??= 'dirty_decay_ms:0,muzzy_decay_ms:0';

/** The ingest app: consumes Kafka; serves only /health and /metrics on HOST:PORT. */
void startHttpApp((config) => IngestAppModule.forRoot(config), {
  refuse: (config) => (config.kafka.brokers ? undefined : 'KAFKA_BROKERS must be set for the ingest app'),
});
