import fc from 'fast-check';
import { loadConfig } from '@app/config';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { ClickHouseService } from './clickhouse.service';
import { MAX_LIST_PARAM_CHARS, inListParamGroups, inlineParams, sqlLiteral } from './sql-literals';

describe('sqlLiteral and inlineParams', () => {
  it('writes numbers, strings, arrays, booleans and NULL as ClickHouse literals', () => {
    expect(sqlLiteral(42)).toBe('42');
    expect(sqlLiteral(-1.5)).toBe('-1.5');
    expect(sqlLiteral(12345678901234567890n)).toBe('12345678901234567890');
    expect(sqlLiteral(true)).toBe('true');
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral("it's a \\ test\n")).toBe("'it\\'s a \\\\ test\\x0a'");
    expect(sqlLiteral([0, 1])).toBe('[0, 1]');
    expect(sqlLiteral(['a', "b'"])).toBe("['a', 'b\\'']");
  });

  it('refuses values it cannot write', () => {
    expect(() => sqlLiteral({ a: 1 })).toThrow('unsupported query parameter value: object');
  });

  it('replaces each placeholder by the value cast to its type, and refuses a missing value or an Identifier', () => {
    const sql = 'SELECT {a:String} AS a, {n:UInt32} AS n, 1 IN {bots:Array(UInt8)} AS b LIMIT {n:UInt32}';
    expect(inlineParams(sql, { a: 'x', n: 3, bots: [0, 1] })).toBe(
      "SELECT CAST('x' AS String) AS a, CAST(3 AS UInt32) AS n, 1 IN CAST([0, 1] AS Array(UInt8)) AS b LIMIT CAST(3 AS UInt32)",
    );
    expect(() => inlineParams(sql, { a: 'x' })).toThrow('query parameter n has no value');
    expect(() => inlineParams('SELECT * FROM {t:Identifier}', { t: 'x' })).toThrow('Identifier');
  });
});

describe('inlined parameters on the embedded engine', () => {
  const ch = new ClickHouseService(loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('lit') }));
  afterAll(() => ch.onApplicationShutdown());

  it('reads back every string as it was, whatever its characters (quotes, backslashes, control characters, NUL)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), async (values) => {
        const params = Object.fromEntries(values.map((v, i) => [`s${i}`, v]));
        const sql = `SELECT [${values.map((_, i) => `{s${i}:String}`).join(', ')}] AS v`;
        const [row] = await ch.query<{ v: string[] }>(inlineParams(sql, params));
        // A lone surrogate reaches the engine as U+FFFD (UTF-8), bound or written.
        expect(row.v).toEqual(values.map((v) => v.toWellFormed()));
      }),
      { numRuns: 200 },
    );
  });

  it('reads back numbers, arrays and dates as their types', async () => {
    const sql = `SELECT {n:UInt32} AS n, {bots:Array(UInt8)} AS bots, {day:Date} AS day, {words:Array(String)} AS words`;
    const params = { n: 4_000_000_000, bots: [0, 1], day: '2026-11-22', words: ["o'clock", 'a\\b'] };
    expect(await ch.query(inlineParams(sql, params))).toEqual(await ch.query(sql, params));
  });
});

describe('inListParamGroups (list parameters that fit a server URL)', () => {
  it('keeps every item once and in order, in groups whose URL characters fit MAX_LIST_PARAM_CHARS', () => {
    const items = Array.from({ length: 3000 }, (_, i) => `token-${i}`);
    const groups = inListParamGroups(items, (t) => t);
    expect(groups.flat()).toEqual(items);
    expect(groups.length).toBeGreaterThan(1);
    for (const group of groups) {
      expect(encodeURIComponent(`[${group.map((t) => `'${t}'`).join(',')}]`).length).toBeLessThanOrEqual(MAX_LIST_PARAM_CHARS);
    }
  });

  it('puts an item larger than the limit in a group of its own', () => {
    const huge = 'x'.repeat(MAX_LIST_PARAM_CHARS);
    expect(inListParamGroups(['a', huge, 'b'], (t) => t)).toEqual([['a'], [huge], ['b']]);
  });
});
