import { Logger } from '@nestjs/common';
import { PassSchedule } from './pass-schedule';

/** A pass the test ends by hand: each call is one pass, resolved or rejected when the test says. */
function passes() {
  const calls: Array<{ resolve: (n: number) => void; reject: (e: Error) => void }> = [];
  const pass = () => new Promise<number>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, pass };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('PassSchedule', () => {
  it('runs one pass at a time: callers during a pass share the one after it', async () => {
    const { calls, pass } = passes();
    const schedule = new PassSchedule('test pass', 0, new Logger('test'), pass);
    const first = schedule.refresh();
    await settle();
    const second = schedule.refresh();
    const third = schedule.refresh();
    await settle();
    expect(calls).toHaveLength(1);
    expect(second).toBe(third);
    calls[0].resolve(3);
    await expect(first).resolves.toBe(3);
    await settle();
    expect(calls).toHaveLength(2);
    calls[1].resolve(5);
    await expect(second).resolves.toBe(5);
  });

  it('stop() waits for a pass asked for behind the one running, which still runs', async () => {
    const { calls, pass } = passes();
    const schedule = new PassSchedule('test pass', 0, new Logger('test'), pass);
    void schedule.refresh();
    await settle();
    const queued = schedule.refresh();
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    calls[0].resolve(1);
    await settle();
    expect(calls).toHaveLength(2);
    expect(stopped).toBe(false);
    calls[1].resolve(2);
    await expect(queued).resolves.toBe(2);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('runs the next pass after one that failed, and stop() waits for it', async () => {
    const { calls, pass } = passes();
    const schedule = new PassSchedule('test pass', 0, new Logger('test'), pass);
    const failed = schedule.refresh();
    await settle();
    const next = schedule.refresh();
    calls[0].reject(new Error('engine gone'));
    await expect(failed).rejects.toThrow('engine gone');
    await settle();
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    calls[1].resolve(1);
    await expect(next).resolves.toBe(1);
    await stopping;
    expect(stopped).toBe(true);
  });
});
