import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import type { HourRange } from '../analytics/window';
import type { AnnotationView } from './annotation.view';

interface AnnotationRow {
  id: string;
  ts: string;
  text: string;
  created_by: string;
  created_at: string;
}

const COLUMNS = 'id, ts, text, created_by, created_at';

/** Annotations as append-only, versioned rows: the latest version of an id is its state, a deletion a deleted version. */
@Injectable()
export class AnnotationsRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** The latest version of each annotation of the instance (`where` narrows the ids read). */
  private current(where = ''): string {
    return `SELECT ${COLUMNS}, deleted FROM ${this.ch.table('annotations')}
      WHERE customer = {customer:String} AND instance = {instance:String} ${where}
      ORDER BY id, version DESC LIMIT 1 BY id`;
  }

  async create(customer: string, instance: string, ts: number, text: string, createdBy: string): Promise<AnnotationView> {
    const id = randomUUID();
    const [version] = await this.clock.next();
    const createdAt = Date.now();
    await this.ch.insert('annotations', [
      {
        customer,
        instance,
        id,
        version,
        ts: chDateTime(ts),
        text,
        deleted: false,
        created_by: createdBy,
        created_at: chDateTime(createdAt),
      },
    ]);
    return { id, ts: new Date(ts).toISOString(), text, createdAt: new Date(createdAt).toISOString() };
  }

  /** The current annotations whose moment lies in the window (whole hours: whole seconds), oldest first (then by id), and their total. */
  async list(
    customer: string,
    instance: string,
    window: HourRange,
    start: number,
    end: number,
  ): Promise<{ items: AnnotationView[]; total: number }> {
    const inWindow = `SELECT ${COLUMNS} FROM (${this.current()})
      WHERE NOT deleted AND ts >= toDateTime({from:UInt32}, 'UTC') AND ts < toDateTime({to:UInt32}, 'UTC')`;
    const params = { customer, instance, from: window.from / 1000, to: window.to / 1000, start, limit: end - start };
    const [rows, [{ total }]] = await Promise.all([
      this.ch.query<AnnotationRow>(`${inWindow} ORDER BY ts, id LIMIT {limit:UInt32} OFFSET {start:UInt32}`, params),
      this.ch.query<{ total: string | number }>(`SELECT count() AS total FROM (${inWindow})`, params),
    ]);
    return { items: rows.map(toView), total: Number(total) };
  }

  /** Appends a deleted version of the annotation; false when the instance has no such (current) annotation. */
  async delete(customer: string, instance: string, id: string): Promise<boolean> {
    const [found] = await this.ch.query<AnnotationRow>(
      `SELECT ${COLUMNS} FROM (${this.current('AND id = {id:String}')}) WHERE NOT deleted`,
      {
        customer,
        instance,
        id,
      },
    );
    if (!found) {
      return false;
    }
    const [version] = await this.clock.next();
    await this.ch.insert('annotations', [{ customer, instance, ...found, version, deleted: true }]);
    return true;
  }
}

function toView(r: AnnotationRow): AnnotationView {
  return {
    id: r.id,
    ts: new Date(fromChDateTime(r.ts)).toISOString(),
    text: r.text,
    createdAt: new Date(fromChDateTime(r.created_at)).toISOString(),
  };
}
