import type { ClickHouseService } from '@app/clickhouse';
import { MetricsService } from '@app/metrics';
import { IngestWriter, type IngestRow } from './ingest-writer';

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
