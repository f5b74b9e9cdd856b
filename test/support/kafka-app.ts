import { startApp, type TestApp } from './test-app';
import { startKafka, type KafkaBroker } from './kafka';

export interface KafkaSuite {
  broker: KafkaBroker;
  app: TestApp;
}

/**
 * For a suite: a broker with `topic` (4 partitions) and the catalogue topic, and an app producing and consuming it
 * as group `group`, started before its tests and stopped after them. Read the fields inside tests.
 */
export function kafkaSuite(topic: string, group: string, env: Record<string, string> = {}): KafkaSuite {
  const suite = {} as KafkaSuite;
  beforeAll(async () => {
    suite.broker = await startKafka({ [topic]: 4, 'catalogue-documents': 1 });
    suite.app = await startApp({
      KAFKA_BROKERS: suite.broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: topic,
      KAFKA_GROUP_ID: group,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      ...env,
    });
  });
  afterAll(async () => {
    await suite.app?.close();
    await suite.broker?.stop();
  });
  return suite;
}
