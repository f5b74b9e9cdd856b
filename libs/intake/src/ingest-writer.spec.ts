import type { ClickHouseService } from '@app/clickhouse';
import { MetricsService } from '@app/metrics';
import { IngestWriter, sameItem, type IngestRow } from './ingest-writer';

/** A store that records what is sent: the check before each statement is the caller's (the ingest consumer's). */
function writerWith(sent: string[]) {
  const ch = { insert: jest.fn((table: string) => Promise.resolve(void sent.push(`insert ${table}`))) };
  return new IngestWriter(ch as unknown as ClickHouseService, new MetricsService());
}

const row: IngestRow = { customer: 'c', instance: 'live', source: 'kafka', topic: 't', partition: 0, offset: 5 };
const rejected = {
  customer: 'c',
  instance: 'live',
  kind: 'search-event' as const,
  source: 'kafka' as const,
  topic: 't',
  partition: 0,
  offset: 4,
  item_index: 0,
  raw: 'x',
  reason: 'not JSON',
  received_at: '2026-01-01 00:00:00.000',
};
const target = { table: 'search_events' as const, kind: 'search-event' as const, tokenSuffix: 'events' };

describe('IngestWriter: the check right before each statement', () => {
  it('awaits beforeSend right before every statement it sends, and only before one it sends', async () => {
    const sent: string[] = [];
    await writerWith(sent).write(target, [row], [rejected], 't:0:4-5', () => Promise.resolve(void sent.push('check')));
    expect(sent).toEqual(['check', 'insert rejected_events', 'check', 'insert search_events']);
  });

  it('sends nothing once the check fails', async () => {
    const sent: string[] = [];
    const lost = () => Promise.reject(new Error('membership lost'));
    await expect(writerWith(sent).write(target, [row], [rejected], 't:0:4-5', lost)).rejects.toThrow('membership lost');
    expect(sent).toEqual([]);
  });
});

describe('IngestWriter: rows of two tables (search events and interactions)', () => {
  interface Mixed extends IngestRow {
    table: 'search_events' | 'interactions';
    bad?: boolean;
  }
  const interactions = { table: 'interactions' as const, kind: 'interaction' as const, tokenSuffix: 'interactions' };
  const mixedTarget = { ...target, targetOf: (r: Mixed) => (r.table === 'interactions' ? interactions : mixedTarget) };
  const mixed = (table: Mixed['table'], offset: number, bad = false): Mixed => ({ ...row, table, offset, bad });

  it('writes the rejected rows, each table with its own token, then the refused rows, each kept with its kind', async () => {
    const sent: Array<[string, string | undefined, number]> = [];
    const ch = {
      insert: jest.fn((table: string, rows: Mixed[], token?: string) => {
        if (rows.some((r) => r.bad) && table !== 'rejected_events') {
          return Promise.reject(Object.assign(new Error('Cannot parse input'), { type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' }));
        }
        sent.push([table, token, rows.length]);
        return Promise.resolve();
      }),
    };
    const writer = new IngestWriter(ch as unknown as ClickHouseService, new MetricsService());
    const rows = [mixed('interactions', 1), mixed('search_events', 2), mixed('interactions', 3, true), mixed('search_events', 4)];
    const refused = await writer.write(mixedTarget, rows, [rejected], 'T');
    expect(sent).toEqual([
      ['rejected_events', 'T:rejected', 1],
      ['search_events', 'T:events', 2],
      ['interactions', 'T:interactions/a', 1],
      ['rejected_events', 'T:refused', 1],
    ]);
    expect([...refused.keys()]).toEqual([rows[2]]);
    const refusedRows = ch.insert.mock.calls[ch.insert.mock.calls.length - 1][1] as unknown as Array<{ kind: string }>;
    expect(refusedRows.map((r) => r.kind)).toEqual(['interaction']);
  });

  it('sends no statement for a table without rows', async () => {
    const sent: string[] = [];
    await writerWith(sent).write(mixedTarget, [mixed('interactions', 1)], [], 'T');
    expect(sent).toEqual(['insert interactions']);
  });
});

describe('IngestWriter: the rows of one item of several', () => {
  it('never splits them around a refused row: they are stored together or refused together', async () => {
    const stored: number[] = [];
    const ch = {
      insert: (table: string, rows: Array<IngestRow & { bad?: boolean }>) => {
        if (table !== 'rejected_events' && rows.some((r) => r.bad)) {
          return Promise.reject(Object.assign(new Error('Cannot parse input'), { type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' }));
        }
        stored.push(...(table === 'rejected_events' ? [] : rows.map((r) => r.offset)));
        return Promise.resolve();
      },
    };
    const writer = new IngestWriter(ch as unknown as ClickHouseService, new MetricsService());
    const rows = [1, 2, 3, 4, 5, 6].map((offset) => ({ ...row, offset, bad: offset === 4 }));
    sameItem(rows.slice(1, 5)); // one item of four rows, the third refused by the store
    const refused = await writer.write(target, rows, [], 'T');
    expect([...refused.keys()].map((r) => r.offset)).toEqual([2, 3, 4, 5]);
    expect(stored.sort()).toEqual([1, 6]);
  });
});
