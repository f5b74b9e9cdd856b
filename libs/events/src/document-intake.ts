import { Injectable, Logger } from '@nestjs/common';
import { nextVersion } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { validateDocument } from '@app/contracts';
import { KafkaService } from '@app/kafka';
import { DocumentsRepository } from './documents.repository';
import { unavailable, type IntakeResult } from './event-intake';
import { intakeAnswer, validateItems } from './validate-items';

/**
 * PUT /documents: items validated one by one; in-process they are written before the answer, with Kafka they are
 * produced to the documents topic keyed by id (so the writes of one document keep their order) and the answer
 * follows the broker's ack. Rejected items go to rejected_events.
 */
@Injectable()
export class DocumentIntake {
  private readonly logger = new Logger('DocumentIntake');

  constructor(
    private readonly config: AppConfig,
    private readonly repository: DocumentsRepository,
    private readonly kafka: KafkaService,
  ) {}

  async submit(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeResult> {
    const now = Date.now();
    const batch = validateItems(customer, instance, 'document', items, now, (item) =>
      validateDocument(item, { source: 'http', now, version: nextVersion(), customer, instance }),
    );
    const { rows, indexes, rejected } = batch;
    try {
      if (!this.config.kafka.brokers) return intakeAnswer(batch, await this.repository.write(rows, rejected));
      // Rejected items first: once the broker acknowledged, the answer must not say that nothing was accepted.
      await this.repository.write([], rejected);
      if (rows.length > 0) {
        const producer = await this.kafka.producer();
        await producer.send({
          topic: this.config.kafka.topicDocuments,
          acks: -1,
          messages: rows.map((row, i) => ({ key: row.id, value: JSON.stringify({ ...(items[indexes[i]] as object), customer, instance }) })),
        });
      }
    } catch (err) {
      throw unavailable(this.logger, 'Storage', err);
    }
    return intakeAnswer(batch);
  }
}
