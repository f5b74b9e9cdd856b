import { LEDGER_PAGE, PartitionLedger } from './partition-ledger';
import type { OffsetsRepository } from './offsets.repository';

/** What ClickHouse would answer for one partition whose offsets 0..last are stored with the hash `h<offset>`. */
function storedThrough(last: number) {
  const reads: number[] = [];
  const repository = {
    lastStored: () => Promise.resolve(last),
    stored: (_t: string, _topic: string, _p: number, from: number, to: number) => {
      reads.push(to - from + 1);
      return Promise.resolve(
        Array.from({ length: Math.max(0, Math.min(to, last) - from + 1) }, (_, i) => ({ offset: from + i, hash: `h${from + i}` })),
      );
    },
  } as unknown as OffsetsRepository;
  return { repository, reads };
}

describe('PartitionLedger', () => {
  it('knows a re-delivered message, stores a new one at a used offset, and past the stored end trusts its own inserts', async () => {
    const { repository } = storedThrough(99);
    const ledger = await PartitionLedger.open(repository, 'search_events', 't', 0);
    expect(await ledger.verdict(5, 'h5')).toBe('stored');
    expect(await ledger.verdict(6, 'other message')).toBe('replaced');
    expect(await ledger.verdict(100, 'h100')).toBe('new');
    ledger.inserted(150);
    expect(await ledger.verdict(120, 'x')).toBe('stored');
    expect(await ledger.verdict(151, 'x')).toBe('new');
  });

  it('reads at most one page of stored offsets at a time, whatever the gap', async () => {
    const { repository, reads } = storedThrough(5 * LEDGER_PAGE);
    const ledger = await PartitionLedger.open(repository, 'search_events', 't', 0);
    for (let offset = 0; offset <= 5 * LEDGER_PAGE; offset += 997) {
      expect(await ledger.verdict(offset, `h${offset}`)).toBe('stored');
    }
    expect(reads.length).toBeGreaterThan(4);
    expect(Math.max(...reads)).toBeLessThanOrEqual(LEDGER_PAGE);
  });

  it('keeps the page it has when reading the next one fails', async () => {
    const { repository } = storedThrough(3 * LEDGER_PAGE);
    const ledger = await PartitionLedger.open(repository, 'search_events', 't', 0);
    expect(await ledger.verdict(10, 'h10')).toBe('stored');
    const working = storedThrough(3 * LEDGER_PAGE).repository;
    repository.stored = () => Promise.reject(new Error('storage down'));
    await expect(Promise.resolve(ledger.verdict(2 * LEDGER_PAGE + 5, 'x'))).rejects.toThrow('storage down');
    repository.stored = (...args) => working.stored(...args);
    expect(await ledger.verdict(10, 'h10')).toBe('stored');
  });
});
