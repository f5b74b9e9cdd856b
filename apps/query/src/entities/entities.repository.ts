import { Injectable } from '@nestjs/common';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import { normalisePhrase, type EntityType } from '@app/contracts';
import type { EntityView } from './entity.view';

export interface EntityChange {
  id: string;
  kind: 'save' | 'autosave';
  deleted: boolean;
  searchPhrases: string[];
  language?: string;
  data: Record<string, unknown>;
}

interface EntityRow {
  id: string;
  row_version: string;
  search_phrases: string[];
  language: string;
  data: string;
  changed_at: string;
}

/** The latest save row of one id: its version (the entity's ETag) and the entity, unless that row deletes it. */
export interface EntityState {
  version: string;
  entity?: EntityView;
}

/**
 * Entities as append-only rows. The state of an entity is its latest `save` row (autosave rows are revisions
 * only); a deleted entity's latest save row has deleted = true.
 */
@Injectable()
export class EntitiesRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  private current(where: string): string {
    return `SELECT id, toString(version) AS row_version, search_phrases, language, data, changed_at, deleted
      FROM ${this.ch.table('entities')}
      WHERE customer = {customer:String} AND instance = {instance:String} AND type = {type:String} AND kind = 'save' ${where}
      ORDER BY id, version DESC LIMIT 1 BY id`;
  }

  async find(customer: string, instance: string, type: EntityType, ids: readonly string[]): Promise<Map<string, EntityView>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows = await this.ch.query<EntityRow>(`SELECT * FROM (${this.current('AND id IN {ids:Array(String)}')}) WHERE NOT deleted`, {
      customer,
      instance,
      type,
      ids,
    });
    return new Map(rows.map((r) => [r.id, toView(type, r)]));
  }

  /** The latest save row of `id`, deleted or not; undefined when the id was never saved. */
  async state(customer: string, instance: string, type: EntityType, id: string): Promise<EntityState | undefined> {
    const [row] = await this.ch.query<EntityRow & { deleted: boolean | number }>(this.current('AND id = {id:String}'), {
      customer,
      instance,
      type,
      id,
    });
    if (!row) {
      return undefined;
    }
    return { version: row.row_version, entity: row.deleted ? undefined : toView(type, row) };
  }

  async list(
    customer: string,
    instance: string,
    type: EntityType,
    start: number,
    end: number,
  ): Promise<{ items: EntityView[]; total: number }> {
    const params = { customer, instance, type, start, limit: end - start };
    const [rows, [{ total }]] = await Promise.all([
      this.ch.query<EntityRow>(
        `SELECT * FROM (${this.current('')}) WHERE NOT deleted ORDER BY id LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
        params,
      ),
      this.ch.query<{ total: string | number }>(`SELECT count() AS total FROM (${this.current('')}) WHERE NOT deleted`, params),
    ]);
    return { items: rows.map((r) => toView(type, r)), total: Number(total) };
  }

  /** Appends the changes in one insert; answers the time they carry and their versions (in the order of `changes`). */
  async append(
    customer: string,
    instance: string,
    type: EntityType,
    changes: readonly EntityChange[],
    changedBy: string,
  ): Promise<{ at: number; versions: string[] }> {
    const now = Date.now();
    const versions = await this.clock.next(changes.length);
    await this.ch.insert(
      'entities',
      changes.map((c, i) => ({
        customer,
        instance,
        type,
        id: c.id,
        version: versions[i],
        kind: c.kind,
        deleted: c.deleted,
        search_phrases: c.searchPhrases,
        handled_phrases: [...new Set(c.searchPhrases.map(normalisePhrase).filter((p) => p.length > 0))],
        language: c.language?.toLowerCase() ?? '',
        data: JSON.stringify(c.data),
        changed_by: changedBy,
        changed_at: chDateTime(now),
      })),
    );
    return { at: now, versions };
  }
}

function toView(type: EntityType, r: EntityRow): EntityView {
  return {
    type,
    id: r.id,
    searchPhrases: r.search_phrases,
    language: r.language || null,
    data: JSON.parse(r.data || '{}') as Record<string, unknown>,
    updatedAt: new Date(fromChDateTime(r.changed_at)).toISOString(),
  };
}
