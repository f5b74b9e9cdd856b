import type { QueryParams } from './clickhouse.service';

/** A `{name:Type}` placeholder of ClickHouse's query parameters. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;

/** A character a ClickHouse string literal cannot hold as it is: the quote, the backslash, a control character. */
function escaped(c: string): string {
  if (c === "'" || c === '\\') {
    return `\\${c}`;
  }
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : c;
}

/** `value` as a ClickHouse literal: a number, a quoted string (escaped), an array of them, NULL, true or false. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) {
    return 'NULL';
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (typeof value === 'bigint') {
    return value.toString();
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) {
      return 'nan';
    }
    if (!Number.isFinite(value)) {
      return value > 0 ? 'inf' : '-inf';
    }
    return String(value);
  }
  if (typeof value === 'string') {
    return `'${Array.from(value, escaped).join('')}'`;
  }
  if (Array.isArray(value)) {
    return `[${value.map(sqlLiteral).join(', ')}]`;
  }
  throw new Error(`unsupported query parameter value: ${typeof value}`);
}

/**
 * The SQL with each `{name:Type}` placeholder replaced by `CAST(<literal> AS Type)`: the same query without
 * parameters to bind. For the embedded engine's lanes (ClickHouseService.inLane), whose queries must not bind
 * parameters (chdb runs every binding query of the process one at a time). Placeholders are found in the text as
 * it is, so the SQL must not hold the pattern inside its own string literals; an Identifier parameter is refused.
 */
export function inlineParams(sql: string, params: QueryParams): string {
  return sql.replace(PLACEHOLDER, (_match, name: string, type: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      throw new Error(`query parameter ${name} has no value`);
    }
    if (type.trim() === 'Identifier') {
      throw new Error(`query parameter ${name}: Identifier cannot be written as a literal`);
    }
    return `CAST(${sqlLiteral(params[name])} AS ${type})`;
  });
}

/**
 * How many characters of a request's URL the values of one statement's list parameters may take: a server gets
 * query parameters in the URL (@clickhouse/client sends them there), which servers and proxies cap (16 KB is
 * common).
 */
export const MAX_LIST_PARAM_CHARS = 8_000;

/** The characters a string takes in a list parameter in the URL: quoted, with a comma, the three percent-encoded. */
export const listParamChars = (value: string): number => encodeURIComponent(value).length + 9;

/** `items` in consecutive groups whose keys fit MAX_LIST_PARAM_CHARS (listParamChars), at least one item each. */
export function inListParamGroups<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups: T[][] = [];
  let size = Infinity;
  for (const item of items) {
    const chars = listParamChars(key(item));
    if (size + chars > MAX_LIST_PARAM_CHARS) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)!.push(item);
    size += chars;
  }
  return groups;
}

/**
 * A query's SETTINGS clause (`SETTINGS a = 1`) written into its text, before a trailing FORMAT clause, or added to the
 * query's own trailing SETTINGS clause. Applied to the query as written, before its parameters are inlined (a value
 * could hold the word SETTINGS).
 */
export function withSettings(sql: string, settings: string): string {
  const format = /\s+FORMAT\s+\w+\s*$/i.exec(sql);
  const body = format ? sql.slice(0, format.index) : sql;
  const own = /\sSETTINGS\s[^()]*$/i.test(body);
  const clause = own ? `, ${settings.replace(/^SETTINGS\s+/i, '')}` : ` ${settings}`;
  return `${body}${clause}${format?.[0] ?? ''}`;
}
