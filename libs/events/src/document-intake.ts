import { Injectable, Logger } from '@nestjs/common';
import { nextVersion } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { rejectedHttpItem, validateDocument, type DocumentRow, type RejectedEventRow } from '@app/contracts';
import { DomainError } from '@app/http';
import { KafkaService } from '@app/kafka';
import { DocumentsRepository } from './documents.repository';
import type { IntakeResult } from './event-intake';

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
    const rows: DocumentRow[] = [];
    const accepted: unknown[] = [];
    const rejected: RejectedEventRow[] = [];
    const reasons: IntakeResult['rejected'] = [];
    items.forEach((item, index) => {
      const result = validateDocument(item, { source: 'http', now, version: nextVersion(), customer, instance });
      if (result.ok) {
        rows.push(result.row);
        accepted.push(item);
      } else {
        reasons.push({ index, reason: result.reason });
        rejected.push(rejectedHttpItem(customer, instance, 'document', index, item, result.reason, now));
      }
    });
    try {
      if (!this.config.kafka.brokers) {
        await this.repository.write(rows, rejected);
      } else {
        if (rows.length > 0) {
          const producer = await this.kafka.producer();
          await producer.send({
            topic: this.config.kafka.topicDocuments,
            acks: -1,
            messages: rows.map((row, i) => ({ key: row.id, value: JSON.stringify({ ...(accepted[i] as object), customer, instance }) })),
          });
        }
        await this.repository.write([], rejected);
      }
    } catch (err) {
      this.logger.error(`writing documents failed: ${(err as Error).message}`);
      throw new DomainError('unavailable', 'Storage is unavailable; nothing of this request was accepted, retry later');
    }
    return { accepted: rows.length, rejected: reasons };
  }
}
