import { Rounds } from './rounds';

describe('Rounds', () => {
  it('runs the items of the same moment in one round and answers each its own result', async () => {
    const run = jest.fn((items: number[]) => Promise.resolve(items.map((n) => n * 10)));
    const rounds = new Rounds(run);
    expect(await Promise.all([rounds.add(1), rounds.add(2), rounds.add(3)])).toEqual([10, 20, 30]);
    expect(run.mock.calls).toEqual([[[1, 2, 3]]]);
  });

  it('fails every item of a failed round, and runs the next round', async () => {
    let fail = true;
    const rounds = new Rounds((items: string[]) => (fail ? Promise.reject(new Error('down')) : Promise.resolve(items)));
    const failed = [rounds.add('a'), rounds.add('b')].map((p) => p.catch((err: Error) => err.message));
    expect(await Promise.all(failed)).toEqual(['down', 'down']);
    fail = false;
    expect(await rounds.add('c')).toBe('c');
  });

  it('starts rounds at least minIntervalMs apart; items added meanwhile join the next round', async () => {
    const starts: number[] = [];
    const run = jest.fn((items: number[]) => {
      starts.push(Date.now());
      return Promise.resolve(items);
    });
    const rounds = new Rounds(run, { minIntervalMs: 50 });
    await rounds.add(1);
    await Promise.all([rounds.add(2), rounds.add(3)]);
    expect(run.mock.calls).toEqual([[[1]], [[2, 3]]]);
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(49);
  });

  it('takes items up to maxSize per round, never fewer than one', async () => {
    const run = jest.fn((items: number[]) => Promise.resolve(items));
    const rounds = new Rounds(run, { maxSize: 5, size: (n) => n });
    await Promise.all([rounds.add(7), rounds.add(2), rounds.add(3), rounds.add(1)]);
    expect(run.mock.calls).toEqual([[[7]], [[2, 3]], [[1]]]);
  });

  it('idle() settles once every item added so far is answered, also items added while a round runs', async () => {
    const answered: number[] = [];
    const rounds = new Rounds((items: number[]) => new Promise<number[]>((r) => setTimeout(() => r(items), 20)), { minIntervalMs: 30 });
    const track = (n: number) => void rounds.add(n).then(() => answered.push(n));
    track(1);
    setTimeout(() => track(2), 5); // while the first round runs
    await new Promise((r) => setTimeout(r, 10));
    await rounds.idle();
    expect(answered).toEqual([1, 2]);
  });
});
