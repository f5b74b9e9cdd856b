/**
 * The table an `INSERT INTO` statement writes to, unqualified and unquoted; undefined for any other statement.
 * A module without imports, so the benchmarks' stand-in server can use it without loading the library.
 */
export function insertTarget(sql: string): string | undefined {
  const target = /^\s*INSERT\s+INTO\s+(?:TABLE\s+)?([^\s(]+)/i.exec(sql)?.[1];
  return target?.split('.').pop()?.replace(/`/g, '');
}
