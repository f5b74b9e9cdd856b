import { isView, tableClass } from './table-classes';

/** Where a statement of cluster mode runs. */
export type Placement =
  /** On every host: a table's or view's definition, which each host keeps (plain engines, Distributed tables). */
  | 'every-host'
  /** On one host of each shard: backfills and mutations of sharded tables, and changes a Replicated table replicates. */
  | 'once-per-shard'
  /** On one host: changes a shared Replicated table replicates to every host. */
  | 'one-host';

export interface PlacedStatement {
  on: Placement;
  sql: string;
}

export interface ClusterLayout {
  /** The cluster's name in the servers' `remote_servers` (CLICKHOUSE_CLUSTER). */
  cluster: string;
  database: string;
  /** Replicated engines (CLICKHOUSE_REPLICATED); false: plain engines, one replica per shard. */
  replicated: boolean;
}

/** The local table of a sharded (or, with plain engines, a shared) table. */
export const localName = (name: string) => `${name}_local`;

/** Distributed tables of tenant tables shard by this; the ledger's are filled only by views on the shards. */
const SHARDING_KEY = { tenant: 'cityHash64(customer, instance)', ledger: 'rand()', shared: '0' } as const;

/**
 * The statements that carry one single-server migration statement out on a cluster. A statement names its tables as
 * `` `database`.`name` `` (the migrations' table()). The rules, by statement:
 * - CREATE TABLE of a tenant or ledger table: `<name>_local` on every host (Replicated engine with `{shard}`/`{replica}`
 *   macros, or plain), then the Distributed table `<name>` over it on every host. A shared table: with Replicated
 *   engines the table itself on every host, one path for the whole cluster; with plain engines as a tenant table,
 *   sharded by the constant 0 (every row on the first shard, the designated host).
 * - CREATE MATERIALIZED VIEW, ALTER ... MODIFY QUERY, DROP VIEW: on every host, reading and writing `_local` tables.
 * - DROP TABLE: on every host, the Distributed table and then its local table (a shared table with Replicated
 *   engines: the table itself).
 * - ALTER TABLE: on the local tables (once per shard with Replicated engines, which replicate it; on every host with
 *   plain ones), and ADD/MODIFY COLUMN also on the Distributed table.
 * - INSERT ... SELECT (a backfill): once per shard, from and into the shard's `_local` tables.
 * Anything else is refused, so a new kind of statement is placed on purpose.
 */
export function clusterStatements(statement: string, layout: ClusterLayout): PlacedStatement[] {
  const text = statement.trim();
  const ref = (name: string) => `\`${layout.database}\`.\`${name}\``;
  const names = tableNames(layout.database);
  const first = names.exec(text)?.[1] ?? '';
  /**
   * The statement's own table (the first it names) as stored on each host, and the tables it reads as the shard's
   * own where they are sharded (tenant and ledger tables); a shared table it reads stays whole (its Distributed table).
   */
  const toLocal = (sql: string) => {
    let target = true;
    return sql.replace(names, (whole, name: string) => {
      const own = target;
      target = false;
      if (isView(name)) {
        return whole;
      }
      return (own ? hasLocal(name, layout) : tableClass(name) !== 'shared') ? ref(localName(name)) : whole;
    });
  };
  const sharded = (on: Placement): Placement => (layout.replicated ? on : 'every-host');

  if (/^CREATE TABLE/i.test(text)) {
    const cls = tableClass(first);
    if (cls === 'shared' && layout.replicated) {
      return [{ on: 'every-host', sql: replicatedEngine(text, '/clickhouse/tables/noshard/{database}/{table}') }];
    }
    const local = toLocal(text);
    const engine = layout.replicated ? replicatedEngine(local, '/clickhouse/tables/{shard}/{database}/{table}') : local;
    const distributed =
      `CREATE TABLE IF NOT EXISTS ${ref(first)} AS ${ref(localName(first))} ` +
      `ENGINE = Distributed('${layout.cluster}', '${layout.database}', '${localName(first)}', ${SHARDING_KEY[cls]})`;
    return [
      { on: 'every-host', sql: engine },
      { on: 'every-host', sql: distributed },
    ];
  }
  if (/^DROP TABLE/i.test(text)) {
    const drops = [{ on: 'every-host' as const, sql: text }];
    return hasLocal(first, layout) ? [...drops, { on: 'every-host', sql: toLocal(text) }] : drops;
  }
  if (/^(CREATE MATERIALIZED VIEW|DROP VIEW)/i.test(text) || (/^ALTER TABLE/i.test(text) && isView(first))) {
    return [{ on: 'every-host', sql: toLocal(text) }];
  }
  if (/^ALTER TABLE/i.test(text)) {
    const cls = tableClass(first);
    const several = /,\s*(ADD|MODIFY|DROP|RENAME|MATERIALIZE|CLEAR)\s/i.test(text);
    const columns = /\b(ADD|MODIFY|DROP|RENAME|CLEAR)\s+COLUMN\b/i.test(text);
    if (!KNOWN_ALTERATIONS.test(text) || (several && columns) || /\b(DROP|RENAME|CLEAR)\s+COLUMN\b/i.test(text)) {
      throw new Error(`an ALTER without a cluster placement (its kind is not placed yet): ${text.slice(0, 80)}`);
    }
    const onTable: Placement = cls === 'shared' && layout.replicated ? 'one-host' : sharded('once-per-shard');
    const placed = [{ on: onTable, sql: layout.replicated ? replicatedSettings(toLocal(text)) : toLocal(text) }];
    const codecOnly = /^ALTER TABLE\s+\S+\s+MODIFY COLUMN\s+(IF EXISTS\s+)?\S+\s+(CODEC\(|REMOVE CODEC\b)/i.test(text);
    if (/^ALTER TABLE\s+\S+\s+(ADD|MODIFY) COLUMN/i.test(text) && hasLocal(first, layout) && !codecOnly) {
      // The Distributed table's columns follow its local table's (their types; it stores nothing to compress).
      placed.push({ on: 'every-host', sql: text });
    }
    return placed;
  }
  if (/^INSERT INTO/i.test(text)) {
    if (tableClass(first) === 'shared') {
      throw new Error(`a migration's INSERT into the shared table ${first} has no cluster placement yet: ${text.slice(0, 80)}`);
    }
    return [{ on: sharded('once-per-shard'), sql: toLocal(text) }];
  }
  throw new Error(`a migration statement without a cluster placement: ${text.slice(0, 80)}`);
}

/** Every `database`.`table` a statement names (the migrations' table()), in order. */
export function tableNames(database: string): RegExp {
  return new RegExp(`\`${database}\`\\.\`(\\w+)\``, 'g');
}

/**
 * The ALTERs placed: changes of indexes, the TTL or settings, or one change of a column (added or retyped: repeated on
 * the Distributed table; a new codec: local tables only). A DROP or RENAME of a column, or a column's change beside
 * others, are refused until placed.
 */
const KNOWN_ALTERATIONS = /^ALTER TABLE\s+\S+\s+(ADD COLUMN|MODIFY COLUMN|ADD INDEX|MATERIALIZE INDEX|MODIFY TTL|MODIFY SETTING)\b[^;]*$/is;

/** Whether a table is stored as `<name>_local` behind a Distributed table of its name. */
function hasLocal(name: string, layout: ClusterLayout): boolean {
  return tableClass(name) !== 'shared' || !layout.replicated;
}

/** The table that stores a table's rows on a host: itself on one server, `<name>_local` where cluster mode shards it. */
export function storedName(name: string, layout: ClusterLayout | undefined): string {
  return layout !== undefined && hasLocal(name, layout) ? localName(name) : name;
}

/** MergeTree engines as their Replicated kin, at `path` (macros expanded by the server), deduplication settings too. */
function replicatedEngine(sql: string, path: string): string {
  if (!/ENGINE\s*=\s*\w*MergeTree\b/.test(sql)) {
    throw new Error(`a table whose engine cannot be made Replicated: ${sql.slice(0, 80)}`);
  }
  const engine = sql.replace(/ENGINE\s*=\s*(\w*)MergeTree(?:\(([^)]*)\))?/, (_whole, kind: string, args?: string) => {
    const params = [`'${path}'`, `'{replica}'`, ...(args ? [args] : [])];
    return `ENGINE = Replicated${kind}MergeTree(${params.join(', ')})`;
  });
  return replicatedSettings(engine);
}

/**
 * A non-replicated table's deduplication window as a Replicated table's: the same number of blocks, kept for a week
 * (Kafka's default retention), so a batch Kafka delivers again within it is dropped.
 */
function replicatedSettings(sql: string): string {
  return sql.replace(
    /non_replicated_deduplication_window = (\d+)/g,
    'replicated_deduplication_window = $1, replicated_deduplication_window_seconds = 604800',
  );
}
