import { Injectable, Logger } from '@nestjs/common';
import { compositeKey, type RejectedEventRow } from '@app/contracts';
import { NotificationsRepository } from '@app/notifications';
import { DataVersions } from './data-versions';
import { IngestWriter, type BeforeSend, type IngestRow, type Refused } from './ingest-writer';
import type { IntakeKind } from './intake-kinds';

/**
 * The one write of the intake, for both transports and the ingest app: rows and rejected rows (IngestWriter), then
 * what follows a write: this process's answer caches learn of the change, and rejected items leave a notification
 * for their instance.
 */
@Injectable()
export class IngestStore {
  private readonly logger = new Logger(IngestStore.name);

  constructor(
    private readonly writer: IngestWriter,
    private readonly versions: DataVersions,
    private readonly notifications: NotificationsRepository,
  ) {}

  /**
   * Answers the rows the store refused (now in rejected_events), with the store's reason. The rows may go to several
   * tables (the kind's `targetOf`: search events and interactions); the answer caches learn of all of them.
   */
  async store<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    rows: readonly Row[],
    rejected: readonly RejectedEventRow[],
    token?: string,
    beforeSend?: BeforeSend,
  ): Promise<Refused<Row>> {
    const refused = await this.writer.write(kind, rows, rejected, token, beforeSend);
    for (const { customer, instance } of byInstance(rows).values()) {
      this.versions.bump(customer, instance);
    }
    if (kind.notifiesRejected) {
      await this.notifyRejected(rejected);
    }
    return refused;
  }

  /** At most one notification per instance per hour; losing one is acceptable, failing the stored write is not. */
  private async notifyRejected(rejected: readonly RejectedEventRow[]): Promise<void> {
    for (const { customer, instance, reason, count, kind } of byInstance(rejected.filter((r) => r.customer && r.instance)).values()) {
      const what = kind === 'interaction' ? 'Clicks or conversions were' : 'Search events were';
      await this.notifications
        .recordThrottled(customer, instance, 'events-rejected', `${what} rejected, e.g.: ${reason}`, {
          rejectedInBatch: count,
          example: reason,
        })
        .catch((err: Error) => this.logger.warn(`notification of rejected events for ${customer}/${instance} failed: ${err.message}`));
    }
  }
}

/** The first row of each (customer, instance) and how many rows it has. */
function byInstance<Row extends { customer: string; instance: string }>(rows: readonly Row[]): Map<string, Row & { count: number }> {
  const found = new Map<string, Row & { count: number }>();
  for (const row of rows) {
    const key = compositeKey(row.customer, row.instance);
    const seen = found.get(key);
    if (seen) {
      seen.count++;
    } else {
      found.set(key, { ...row, count: 1 });
    }
  }
  return found;
}
