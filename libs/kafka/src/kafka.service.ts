import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Kafka, Partitioners, logLevel, type Admin, type Consumer, type ConsumerConfig, type LogEntry, type Producer } from 'kafkajs';
import { AppConfig } from '@app/config';
import { KafkaLogPolicy, type KafkaLogLine } from './kafka-log-policy';

/**
 * The kafkajs client of the process (only when KAFKA_BROKERS is set) and its one producer. Clients are made here
 * (consumer(), producer()) so that their completed requests end an outage in the logs (KafkaLogPolicy).
 */
@Injectable()
export class KafkaService implements OnApplicationShutdown {
  private readonly logger = new Logger('Kafka');
  private readonly logPolicy = new KafkaLogPolicy();
  private kafkaClient?: Kafka;
  private producerReady?: Promise<Producer>;

  constructor(private readonly config: AppConfig) {}

  get enabled(): boolean {
    return Boolean(this.config.kafka.brokers);
  }

  get kafka(): Kafka {
    if (!this.config.kafka.brokers) {
      throw new Error('KAFKA_BROKERS is not set');
    }
    this.kafkaClient ??= new Kafka({
      clientId: 'search-analytics',
      brokers: this.config.kafka.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.write(this.logPolicy.line(entry)),
      retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 5_000 },
    });
    return this.kafkaClient;
  }

  /**
   * An admin client of its own that gives up quickly (one retry) and logs nothing, for periodic probes whose caller
   * reports a failure itself, once per outage: kafkajs would log every attempt to connect.
   */
  quietAdmin(): Admin {
    if (!this.config.kafka.brokers) {
      throw new Error('KAFKA_BROKERS is not set');
    }
    const client = new Kafka({
      clientId: 'search-analytics-probe',
      brokers: this.config.kafka.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 },
    });
    return client.admin();
  }

  consumer(config: ConsumerConfig): Consumer {
    return this.watched(this.kafka.consumer(config));
  }

  /** A connected producer; sends use acks=all. */
  producer(): Promise<Producer> {
    this.producerReady ??= (async () => {
      const producer = this.watched(
        this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false }),
      );
      await producer.connect();
      return producer;
    })().catch((err: unknown) => {
      this.producerReady = undefined;
      throw err;
    });
    return this.producerReady;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.producerReady) {
      await (await this.producerReady.catch(() => undefined))?.disconnect();
    }
  }

  /** Every request a client completes tells the log policy its broker answers (kafkajs' instrumentation event). */
  private watched<Client extends Consumer | Producer | Admin>(client: Client): Client {
    (client as Consumer).on((client as Consumer).events.REQUEST, ({ payload }) => {
      const line = this.logPolicy.reached(payload.broker);
      if (line) {
        this.write(line);
      }
    });
    return client;
  }

  private write({ level, text }: KafkaLogLine): void {
    if (level === 'error') {
      this.logger.error(text);
    } else if (level === 'warn') {
      this.logger.warn(text);
    } else if (level === 'info') {
      this.logger.log(text);
    } else {
      this.logger.debug(text);
    }
  }
}
