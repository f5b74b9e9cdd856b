import { Injectable, Logger } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import { compositeKey } from '@app/contracts';

export const NOTIFICATION_KINDS = ['webhook-failed', 'events-rejected'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A notification as listed by GET /notifications. */
export class NotificationView {
  @ApiProperty({ example: '6c1d2a7e-8f0b-4b8e-9a55-2f7d3c9e1b40', description: 'Opaque; pass it to DELETE /notifications' })
  id!: string;

  @ApiProperty({
    enum: NOTIFICATION_KINDS,
    enumName: 'NotificationKind',
    description: 'webhook-failed: a webhook call failed (it is not retried); events-rejected: search events were rejected',
  })
  kind!: NotificationKind;

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

  async record(
    customer: string,
    instance: string,
    kind: NotificationKind,
    message: string,
    details: Record<string, unknown> = {},
  ): Promise<string> {
    const id = randomUUID();
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
  async list(customer: string, instance: string, start: number, end: number): Promise<{ items: NotificationView[]; total: number }> {
    const current = `SELECT id, kind, message, details, created_at, deleted FROM ${this.ch.table('notifications')}
      WHERE customer = {customer:String} AND instance = {instance:String}
      ORDER BY id, version DESC LIMIT 1 BY id`;
    const params = { customer, instance, start, limit: end - start };
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
      items: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        message: r.message,
        details: JSON.parse(r.details || '{}') as Record<string, unknown>,
        createdAt: new Date(fromChDateTime(r.created_at)).toISOString(),
      })),
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
