import { afterBoth, settled } from './pipeline';

/** A promise settled from outside. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('afterBoth (a batch commits only after its own insert and the batch before it)', () => {
  it('commits once both are done, whichever finishes first', async () => {
    const earlier = deferred();
    const own = deferred();
    const commit = jest.fn(() => Promise.resolve());
    const done = afterBoth(earlier.promise, own.promise, commit);
    own.resolve();
    await tick();
    expect(commit).not.toHaveBeenCalled();
    earlier.resolve();
    await done;
    expect(commit).toHaveBeenCalledTimes(1);
  });

  it('does not commit when the batch before failed, and fails only once its own insert settled', async () => {
    const earlier = deferred();
    const own = deferred();
    const commit = jest.fn(() => Promise.resolve());
    let failed = false;
    const done = afterBoth(earlier.promise, own.promise, commit).catch((err: Error) => {
      failed = true;
      return err.message;
    });
    earlier.reject(new Error('abandoned'));
    await tick();
    expect(failed).toBe(false); // its own insert is still running: nothing may tell kafkajs to rejoin yet
    own.resolve();
    expect(await done).toBe('abandoned');
    expect(commit).not.toHaveBeenCalled();
  });

  it("fails with its own insert's error first and never commits", async () => {
    const commit = jest.fn(() => Promise.resolve());
    await expect(afterBoth(undefined, Promise.reject(new Error('own')), commit)).rejects.toThrow('own');
    await expect(afterBoth(Promise.reject(new Error('before')), Promise.reject(new Error('own')), commit)).rejects.toThrow('own');
    expect(commit).not.toHaveBeenCalled();
  });
});

describe('settled', () => {
  it('resolves whether the promise fulfils or rejects, and without one', async () => {
    await expect(settled(Promise.reject(new Error('x')))).resolves.toBeUndefined();
    await expect(settled(Promise.resolve(1))).resolves.toBeUndefined();
    await expect(settled(undefined)).resolves.toBeUndefined();
  });
});
