import { Injectable } from '@nestjs/common';
import { RefreshingCache } from '@app/auth';
import { ClickHouseService, VersionClock, chDateTime } from '@app/clickhouse';

/** An Algolia index name an instance declares: with `language`, only that language's searches count. */
export interface AlgoliaIndex {
  language?: string;
}

/** An instance's Algolia index names (`PUT /configuration`, `algoliaIndexes`). */
export type AlgoliaIndexes = Record<string, AlgoliaIndex>;

/** A stored map, or none when the row is not one (the table is open to analysts: a row written by hand). */
function parsed(json: string): AlgoliaIndexes {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AlgoliaIndexes) : {};
  } catch {
    return {};
  }
}

type Declared = ReadonlyArray<Readonly<{ instance: string; indexes: Readonly<AlgoliaIndexes> }>>;

/**
 * The Algolia index names of each instance (docs/algolia.md, "Index names"): append-only versioned rows of
 * `algolia_indexes`, the instance's whole map as JSON; the latest version holds. Kept in memory per customer and read
 * again ahead of need, as API keys are (RefreshingCache): a request naming an index reads no storage while traffic is
 * steady; a change made through another process is seen within CREDENTIALS_MAX_AGE_MS, one made here at once.
 */
@Injectable()
export class AlgoliaIndexesRepository {
  private readonly declared = new RefreshingCache<Declared>((customer) => this.stored(customer));

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** Every instance's names, the instances that declared names the earliest first. */
  async all(customer: string): Promise<Declared> {
    return (await this.declared.get(customer)) ?? [];
  }

  /** The same, read from storage now: what a change is checked against. */
  async stored(customer: string): Promise<Declared> {
    const rows = await this.ch.query<{ instance: string; indexes: string }>(
      `SELECT instance, indexes, first FROM (
         SELECT instance, argMax(indexes, version) AS indexes, min(version) AS first
         FROM ${this.ch.table('algolia_indexes')} WHERE customer = {customer:String} GROUP BY instance
       ) ORDER BY first, instance`,
      { customer },
    );
    // Frozen: the cache hands the same values to every request.
    return Object.freeze(rows.map((r) => Object.freeze({ instance: r.instance, indexes: Object.freeze(parsed(r.indexes)) })));
  }

  async get(customer: string, instance: string): Promise<AlgoliaIndexes> {
    return (await this.all(customer)).find((r) => r.instance === instance)?.indexes ?? {};
  }

  /**
   * The instance (and language) an index name reads, undefined for a name no instance declares. Should two instances
   * hold a name (two changes at once), the instance that declared names first keeps it.
   */
  async find(customer: string, name: string): Promise<{ instance: string; language?: string } | undefined> {
    const holder = (await this.all(customer)).find((r) => Object.hasOwn(r.indexes, name));
    return holder && { instance: holder.instance, ...holder.indexes[name] };
  }

  async save(customer: string, instance: string, indexes: AlgoliaIndexes, changedBy: string): Promise<void> {
    const [version] = await this.clock.next();
    await this.ch.insert('algolia_indexes', [
      { customer, instance, version, indexes: JSON.stringify(indexes), changed_by: changedBy, changed_at: chDateTime() },
    ]);
    this.declared.delete(customer);
  }
}
