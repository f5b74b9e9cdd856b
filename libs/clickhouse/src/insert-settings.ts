import type { ClickHouseSettings } from '@clickhouse/client';
import type { ClickHouseService } from './clickhouse.service';

/**
 * The semantics every insert states for itself, so a server's defaults (or an operator's profile) cannot change
 * them. Supported: ClickHouse 24.8 LTS through 26.x (docs/operations.md).
 * - async_insert = 0: 26.2 turned asynchronous inserts on by default; an insert must be in its tables (and its
 *   rollups) when it is answered, and be deduplicated by its token like a synchronous one.
 * - insert_deduplicate = 1, and deduplicate_insert = 'enable' where the server has it (26.2+, where it overrides
 *   insert_deduplicate unless it is 'backward_compatible_choice'): a retried batch with the same token is dropped.
 * - deduplicate_blocks_in_dependent_materialized_views = 1 (default 0 before 26.2): the rollups fed by
 *   materialised views are deduplicated with the insert, so a retry is not counted twice there either.
 * - materialized_views_ignore_errors = 0: a view that fails fails the insert, so it is retried, not half-stored.
 * - parallel_view_processing = 1: an insert runs its views on threads of their own, not one after another. With
 *   search_events' twelve views, one after another they took about a quarter of an ingest batch's insert
 *   (docs/benchmarks/methods.md, "Where an ingest batch's time goes"); what lands, and its deduplication, do not
 *   change. On the embedded engine it is set for the session, so INSERT ... SELECT statements there run their views
 *   side by side too.
 * - insert_deduplication_token: the caller's, or a fresh one (through chdb settings stay in force for the
 *   session, and a token left behind would make a later insert a silently dropped "duplicate").
 * Settings the server does not know are left out (an unknown setting fails the query).
 */
const PINNED_INSERT_SETTINGS: Readonly<Record<string, string | number>> = {
  async_insert: 0,
  insert_deduplicate: 1,
  deduplicate_insert: 'enable',
  deduplicate_blocks_in_dependent_materialized_views: 1,
  materialized_views_ignore_errors: 0,
  parallel_view_processing: 1,
};

/** The pinned settings the server knows. */
function pinnedSettings(known: ReadonlySet<string>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(PINNED_INSERT_SETTINGS).filter(([name]) => known.has(name)));
}

export function insertSettings(known: ReadonlySet<string>, token: string): ClickHouseSettings {
  return { ...pinnedSettings(known), insert_deduplication_token: token };
}

/** The pinned settings a store knows, looked up once, for ClickHouseService.insert (see insertSettings). */
export class InsertSettings {
  private known?: Promise<ReadonlySet<string>>;

  constructor(private readonly store: Pick<ClickHouseService, 'embedded' | 'query' | 'command'>) {}

  /** The pinned settings the store knows; on the embedded engine they are also set, once, for its session. */
  names(): Promise<ReadonlySet<string>> {
    this.known ??= this.store
      .query<{ name: string }>(`SELECT name FROM system.settings WHERE name IN {names:Array(String)}`, {
        names: Object.keys(PINNED_INSERT_SETTINGS),
      })
      .then(
        async (rows) => {
          const known = new Set(rows.map((r) => r.name));
          if (this.store.embedded) {
            const pinned = Object.entries(pinnedSettings(known));
            await this.store.command(
              pinned.map(([name, value]) => `SET ${name} = ${typeof value === 'string' ? `'${value}'` : value}`).join('; '),
            );
          }
          return known;
        },
        (err: unknown) => {
          this.known = undefined; // storage not reachable yet: ask again with the next insert
          throw err;
        },
      );
    return this.known;
  }
}
