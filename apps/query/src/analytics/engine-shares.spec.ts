import { EngineShares, GRACE_MS } from './engine-shares';

/** Whether each promise has settled, after the microtasks that settle it ran. */
async function started(promises: Array<Promise<void>>): Promise<boolean[]> {
  const done = promises.map(() => false);
  promises.forEach((p, i) => void p.then(() => (done[i] = true)));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('EngineShares (2 cores)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a customer alone run a query per core, the next when one ended', async () => {
    const shares = new EngineShares(2);
    const a = [shares.enter('a'), shares.enter('a'), shares.enter('a')];
    expect(await started(a)).toEqual([true, true, false]);
    shares.leave('a');
    expect(await started(a)).toEqual([true, true, true]);
  });

  it("starts another customer's first query at once, and holds the first customer to one query while both use the engine", async () => {
    const shares = new EngineShares(2);
    await shares.enter('a');
    await shares.enter('a');
    const b = shares.enter('b');
    expect(await started([b])).toEqual([true]);
    const a = shares.enter('a');
    shares.leave('a'); // a runs 1: its share
    expect(await started([a])).toEqual([false]);
    shares.leave('a'); // a runs 0
    expect(await started([a])).toEqual([true]);
    const a2 = shares.enter('a');
    shares.leave('b');
    // b ended a moment ago: it still counts, so a stays at one until b's grace is over.
    expect(await started([a2])).toEqual([false]);
    jest.advanceTimersByTime(GRACE_MS);
    expect(await started([a2])).toEqual([true]);
  });

  it("starts a customer's waiting queries in the order they came", async () => {
    const shares = new EngineShares(1);
    await shares.enter('a');
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => shares.enter('a').then(() => order.push(n)));
    for (let i = 0; i < 3; i++) {
      shares.leave('a');
      await Promise.resolve();
    }
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
  });

  it('gives every customer at least one query, however many use the engine', async () => {
    const shares = new EngineShares(2);
    const firsts = ['a', 'b', 'c', 'd'].map((c) => shares.enter(c));
    expect(await started(firsts)).toEqual([true, true, true, true]);
    expect(shares.share()).toBe(1);
  });
});
