import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Kafka, Partitioners, logLevel, type Admin, type LogEntry, type Producer } from 'kafkajs';
import { AppConfig } from '@app/config';

/** The kafkajs client of the process (only when KAFKA_BROKERS is set) and its one producer. */
@Injectable()
export class KafkaService implements OnApplicationShutdown {
  private readonly logger = new Logger('Kafka');
  private kafkaClient?: Kafka;
  private producerReady?: Promise<Producer>;

  constructor(private readonly config: AppConfig) {}

  get enabled(): boolean {
    return Boolean(this.config.kafka.brokers);
  }

  get kafka(): Kafka {
    if (!this.config.kafka.brokers) throw new Error('KAFKA_BROKERS is not set');
    this.kafkaClient ??= new Kafka({
      clientId: 'search-analytics',
      brokers: this.config.kafka.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.log(entry),
      retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 5_000 },
    });
    return this.kafkaClient;
  }

  /**
   * An admin client of its own that gives up quickly (one retry) and logs nothing, for periodic probes whose caller
   * reports a failure itself, once per outage: kafkajs would log every attempt to connect.
   */
  quietAdmin(): Admin {
    if (!this.config.kafka.brokers) throw new Error('KAFKA_BROKERS is not set');
    const client = new Kafka({
      clientId: 'search-analytics-probe',
      brokers: this.config.kafka.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 },
    });
    return client.admin();
  }

  /** A connected producer; sends use acks=all. */
  producer(): Promise<Producer> {
    this.producerReady ??= (async () => {
      const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
      await producer.connect();
      return producer;
    })().catch((err: unknown) => {
      this.producerReady = undefined;
      throw err;
    });
    return this.producerReady;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.producerReady) await (await this.producerReady.catch(() => undefined))?.disconnect();
  }

  private log({ level, log }: LogEntry): void {
    const { message, ...extra } = log;
    const text = `${log.logger ?? 'kafkajs'}: ${message} ${JSON.stringify(extra)}`;
    if (level === logLevel.ERROR) this.logger.error(text);
    else if (level === logLevel.WARN) this.logger.warn(text);
    else this.logger.debug(text);
  }
}
