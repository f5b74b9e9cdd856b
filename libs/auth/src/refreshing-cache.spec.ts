import { RefreshingCache } from './refreshing-cache';

/** A cache on a clock the test moves, whose reads the test answers one by one. */
function cacheOnClock() {
  const clock = { now: 0 };
  const reads: Array<{ key: string; answer: (value: { v: number } | undefined) => void; fail: (err: Error) => void }> = [];
  const cache = new RefreshingCache<{ v: number }>(
    (key) =>
      new Promise((resolve, reject) => {
        reads.push({ key, answer: resolve, fail: reject });
      }),
    { refreshMs: 1_000, maxAgeMs: 2_000, now: () => clock.now },
  );
  /** Fills the entry of 'a' with { v: 1 } at the clock's time. */
  const filled = async () => {
    const got = cache.get('a');
    reads[reads.length - 1].answer({ v: 1 });
    await got;
  };
  return { clock, reads, cache, filled };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('RefreshingCache', () => {
  it('reads a key once for many gets at once, and not again while the entry is young', async () => {
    const { clock, reads, cache } = cacheOnClock();
    const gets = Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    expect(reads).toHaveLength(1);
    reads[0].answer({ v: 1 });
    expect(await gets).toEqual([{ v: 1 }, { v: 1 }, { v: 1 }]);
    clock.now = 999;
    expect(await cache.get('a')).toEqual({ v: 1 });
    expect(reads).toHaveLength(1);
  });

  it('answers from an entry due for refresh at once, reading it again once in the background', async () => {
    const { clock, reads, cache, filled } = cacheOnClock();
    await filled();
    clock.now = 1_500;
    expect(await Promise.all([cache.get('a'), cache.get('a')])).toEqual([{ v: 1 }, { v: 1 }]);
    expect(reads).toHaveLength(2);
    reads[1].answer({ v: 2 });
    await settled();
    // The new entry's age counts from the start of its read (1.5 s): young until 2.5 s.
    clock.now = 2_400;
    expect(await cache.get('a')).toEqual({ v: 2 });
    expect(reads).toHaveLength(2);
  });

  it('waits for a read when the entry is past its maximum age', async () => {
    const { clock, reads, cache, filled } = cacheOnClock();
    await filled();
    clock.now = 2_000;
    const late = cache.get('a');
    expect(reads).toHaveLength(2);
    reads[1].answer({ v: 2 });
    expect(await late).toEqual({ v: 2 });
  });

  it('keeps using an entry whose background read failed until its maximum age, then reports the failure', async () => {
    const { clock, reads, cache, filled } = cacheOnClock();
    await filled();
    clock.now = 1_000;
    expect(await cache.get('a')).toEqual({ v: 1 });
    reads[1].fail(new Error('storage down'));
    await settled();
    clock.now = 1_900;
    expect(await cache.get('a')).toEqual({ v: 1 });
    clock.now = 2_000;
    const late = cache.get('a');
    reads[reads.length - 1].fail(new Error('storage down'));
    await expect(late).rejects.toThrow('storage down');
  });

  it('keeps out of the cache what a read under way when the key was deleted answers, and reads again', async () => {
    const { reads, cache } = cacheOnClock();
    const before = cache.get('a');
    cache.delete('a');
    const after = cache.get('a');
    expect(reads).toHaveLength(2);
    reads[1].answer({ v: 2 });
    reads[0].answer({ v: 1 });
    expect(await before).toEqual({ v: 1 });
    expect(await after).toEqual({ v: 2 });
    expect(await cache.get('a')).toEqual({ v: 2 });
    expect(reads).toHaveLength(2);
  });

  it('does not keep an unknown key', async () => {
    const { reads, cache } = cacheOnClock();
    const first = cache.get('a');
    reads[0].answer(undefined);
    expect(await first).toBeUndefined();
    void cache.get('a');
    expect(reads).toHaveLength(2);
  });
});
