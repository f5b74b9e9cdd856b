import { Injectable } from '@nestjs/common';
import { ClickHouseService, VersionClock, chDateTime } from '@app/clickhouse';
import type { AlertConfig } from './alert-config';

export interface InstanceAlerts {
  customer: string;
  instance: string;
  config: AlertConfig;
}

/** An instance's alert configuration: append-only versioned rows of `alert_config`, '' when alerts are off. */
@Injectable()
export class AlertConfigRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  async get(customer: string, instance: string): Promise<AlertConfig | null> {
    const rows = await this.ch.query<{ config: string }>(
      `SELECT config FROM ${this.ch.table('alert_config')}
       WHERE customer = {customer:String} AND instance = {instance:String} ORDER BY version DESC LIMIT 1`,
      { customer, instance },
    );
    return parse(rows[0]?.config ?? '');
  }

  async save(customer: string, instance: string, config: AlertConfig | null, changedBy: string): Promise<void> {
    const [version] = await this.clock.next();
    await this.ch.insert('alert_config', [
      { customer, instance, version, config: config ? JSON.stringify(config) : '', changed_by: changedBy, changed_at: chDateTime() },
    ]);
  }

  /** Every instance whose alerts are on. */
  async enabled(): Promise<InstanceAlerts[]> {
    const rows = await this.ch.query<{ customer: string; instance: string; config: string }>(
      `SELECT customer, instance, config FROM (
         SELECT customer, instance, config FROM ${this.ch.table('alert_config')} ORDER BY version DESC LIMIT 1 BY customer, instance
       ) WHERE config != ''`,
    );
    return rows.map((r) => ({ customer: r.customer, instance: r.instance, config: parse(r.config)! }));
  }
}

function parse(config: string): AlertConfig | null {
  return config ? (JSON.parse(config) as AlertConfig) : null;
}
