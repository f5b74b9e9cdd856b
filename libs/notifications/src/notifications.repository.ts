import { Injectable, Logger } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import { compositeKey } from '@app/contracts';

export const NOTIFICATION_KINDS = ['webhook-failed', 'events-rejected', 'alert'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The alert rules (GET /notifications `alert`, and the alert POST's). */
export const ALERT_NAMES = ['unhandled-zero-result-term', 'zero-hit-rate-spike'] as const;
export type AlertName = (typeof ALERT_NAMES)[number];

/** A notification as listed by GET /notifications. */
export class NotificationView {
  @ApiProperty({ example: '6c1d2a7e-8f0b-4b8e-9a55-2f7d3c9e1b40', description: 'Opaque; pass it to DELETE /notifications' })
  id!: string;

  @ApiProperty({
    enum: NOTIFICATION_KINDS,
    enumName: 'NotificationKind',
    description:
      'webhook-failed: a webhook (or alert) call failed (it is not retried); events-rejected: search events were rejected; ' +
      'alert: an alert was raised (its figures are in details and beside type)',
  })
  kind!: NotificationKind;

  @ApiProperty({
    enum: NOTIFICATION_KINDS,
    enumName: 'NotificationKind',
    description: 'The same as kind: the name alerts carry everywhere',
  })
  type!: NotificationKind;

  @ApiProperty({ example: 'Webhook delivery to https://hooks.example.com failed: HTTP 500' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { type: 'landingpage', action: 'update', ids: ['summer-sale'] },
    description: "webhook-failed: the call's type, action and ids; events-rejected: rejectedInBatch and an example reason",
  })
  details!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
  createdAt!: string;

  @ApiPropertyOptional({ enum: ALERT_NAMES, enumName: 'AlertName', description: 'Alerts only: which rule raised it' })
  alert?: AlertName;

  @ApiPropertyOptional({ example: 'sneker', description: 'unhandled-zero-result-term: the normalised term' })
  search_phrase?: string;

  @ApiPropertyOptional({ type: [String], example: ['de', 'de-ch'], description: 'unhandled-zero-result-term: its unhandled languages' })
  languages?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    example: 74,
    description: 'unhandled-zero-result-term: its zero-result searches of the last 24 h in those languages',
  })
  zero_result_searches?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-27T14:00:00.000Z',
    description: 'zero-hit-rate-spike: the hour (its start, UTC)',
  })
  hour?: string;

  @ApiPropertyOptional({ type: 'integer', example: 412, description: 'zero-hit-rate-spike: the searches of the hour' })
  searches?: number;

  @ApiPropertyOptional({ example: 0.31, description: 'zero-hit-rate-spike: the share of those that found nothing' })
  zero_hit_rate?: number;

  @ApiPropertyOptional({ example: 0.12, description: 'zero-hit-rate-spike: the median rate of the same hour on the 7 days before' })
  baseline_rate?: number;
}

interface NotificationRow {
  id: string;
  kind: NotificationKind;
  message: string;
  details: string;
  created_at: string;
}

/** Notifications the service writes for an instance; a deletion appends a deleted version. */
@Injectable()
export class NotificationsRepository {
  private readonly logger = new Logger(NotificationsRepository.name);
  /** Throttle keys recorded in this process within the last hour. */
  private readonly recent = new LRUCache<string, true>({ max: 100_000, ttl: 60 * 60 * 1000 });

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** `id`: a caller that may record the same notification twice (a retried alert) names it, so it is listed once. */
  async record(
    customer: string,
    instance: string,
    kind: NotificationKind,
    message: string,
    details: Record<string, unknown> = {},
    id: string = randomUUID(),
  ): Promise<string> {
    const [version] = await this.clock.next();
    await this.ch.insert('notifications', [
      { customer, instance, id, version, kind, message, details: JSON.stringify(details), deleted: false, created_at: chDateTime() },
    ]);
    return id;
  }

  /**
   * At most one notification of this kind per instance per hour (kept in storage, so other processes and
   * restarts respect it too). Never throws: a notification must not fail the work it reports on.
   */
  async recordThrottled(
    customer: string,
    instance: string,
    kind: NotificationKind,
    message: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const key = compositeKey(customer, instance, kind);
    if (this.recent.has(key)) {
      return;
    }
    this.recent.set(key, true);
    try {
      const rows = await this.ch.query<{ n: number }>(
        `SELECT 1 AS n FROM ${this.ch.table('notifications')}
         WHERE customer = {customer:String} AND instance = {instance:String} AND kind = {kind:String}
           AND created_at > now64(3) - INTERVAL 1 HOUR LIMIT 1`,
        { customer, instance, kind },
      );
      if (rows.length === 0) {
        await this.record(customer, instance, kind, message, details);
      }
    } catch (err) {
      this.recent.delete(key);
      this.logger.warn(`notification ${kind} not recorded: ${(err as Error).message}`);
    }
  }

  /** Current (not deleted) notifications, newest first, and their total. */
  async list(
    customer: string,
    instance: string,
    start: number,
    end: number,
    kind?: NotificationKind,
  ): Promise<{ items: NotificationView[]; total: number }> {
    const current = `SELECT id, kind, message, details, created_at, deleted FROM ${this.ch.table('notifications')}
      WHERE customer = {customer:String} AND instance = {instance:String} ${kind ? 'AND kind = {kind:String}' : ''}
      ORDER BY id, version DESC LIMIT 1 BY id`;
    const params = { customer, instance, start, limit: end - start, kind: kind ?? '' };
    const [rows, [{ total }]] = await Promise.all([
      this.ch.query<NotificationRow>(
        `SELECT id, kind, message, details, created_at FROM (${current}) WHERE NOT deleted
         ORDER BY created_at DESC, id DESC LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
        params,
      ),
      this.ch.query<{ total: string | number }>(`SELECT count() AS total FROM (${current}) WHERE NOT deleted`, params),
    ]);
    return {
      total: Number(total),
      items: rows.map((r) => {
        const details = JSON.parse(r.details || '{}') as Record<string, unknown>;
        const createdAt = new Date(fromChDateTime(r.created_at)).toISOString();
        // An alert's figures also stand beside its type, as in the alert's POST.
        return { id: r.id, kind: r.kind, type: r.kind, message: r.message, details, createdAt, ...(r.kind === 'alert' ? details : {}) };
      }),
    };
  }

  /** Marks the given notifications deleted; unknown or already deleted ids are ignored. */
  async delete(customer: string, instance: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) {
      return 0;
    }
    const existing = await this.ch.query<{ id: string; kind: string; message: string; details: string; created_at: string }>(
      `SELECT id, kind, message, details, created_at FROM (
         SELECT id, kind, message, details, created_at, deleted FROM ${this.ch.table('notifications')}
         WHERE customer = {customer:String} AND instance = {instance:String} AND id IN {ids:Array(String)}
         ORDER BY id, version DESC LIMIT 1 BY id
       ) WHERE NOT deleted`,
      { customer, instance, ids },
    );
    const versions = await this.clock.next(existing.length);
    await this.ch.insert(
      'notifications',
      existing.map((r, i) => ({
        customer,
        instance,
        id: r.id,
        version: versions[i],
        kind: r.kind,
        message: r.message,
        details: r.details,
        deleted: true,
        created_at: r.created_at,
      })),
    );
    return existing.length;
  }
}
