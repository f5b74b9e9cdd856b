import { Injectable } from '@nestjs/common';
import { ClickHouseService, VersionClock, chDateTime } from '@app/clickhouse';

/**
 * The instance's webhook URL, stored as append-only versioned rows of `instance_config` (the latest version holds).
 * The webhooks module owns it: delivery reads it, the configuration routes read and write it through this module.
 */
@Injectable()
export class WebhookUrlRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** The webhook URL, "" when none is set or it was disabled. */
  async webhookUrl(customer: string, instance: string): Promise<string> {
    const rows = await this.ch.query<{ webhook_url: string }>(
      `SELECT webhook_url FROM ${this.ch.table('instance_config')}
       WHERE customer = {customer:String} AND instance = {instance:String} ORDER BY version DESC LIMIT 1`,
      { customer, instance },
    );
    return rows[0]?.webhook_url ?? '';
  }

  async saveWebhookUrl(customer: string, instance: string, url: string, changedBy: string): Promise<void> {
    const [version] = await this.clock.next();
    await this.ch.insert('instance_config', [
      { customer, instance, version, webhook_url: url, changed_by: changedBy, changed_at: chDateTime() },
    ]);
  }
}
