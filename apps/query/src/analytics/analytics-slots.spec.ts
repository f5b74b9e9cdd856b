import { PassThrough } from 'node:stream';
import type { ClickHouseService } from '@app/clickhouse';
import type { AppConfig } from '@app/config';
import { RetryLaterError } from '@app/errors';
import { AnalyticsSlots, QUEUE_PER_SLOT } from './analytics-slots';

/** Work that runs until its `finish` is called. */
function held<T>(value: T): { work: () => Promise<T>; started: Promise<void>; finish(): void } {
  let finish!: () => void;
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const done = new Promise<void>((r) => (finish = r));
  return {
    work: async () => {
      started();
      await done;
      return value;
    },
    started: startedP,
    finish,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('AnalyticsSlots', () => {
  const lanes: Array<{ maxThreads: number }> = [];
  const ch = {
    inLane: <T>(work: () => Promise<T>, options: { maxThreads: number }) => {
      lanes.push(options);
      return work();
    },
  } as unknown as ClickHouseService;
  const slotsOf = (analyticsConcurrency: number) => new AnalyticsSlots({ analyticsConcurrency } as AppConfig, ch);

  it('runs a customer’s work in as many slots as ANALYTICS_CONCURRENCY, queues 4 per slot, and refuses the next', async () => {
    const slots = slotsOf(2);
    const works = Array.from({ length: 2 + 2 * QUEUE_PER_SLOT }, (_, i) => held(i));
    const answers = works.map((w) => slots.run('a', w.work));
    await Promise.all([works[0].started, works[1].started]);
    await tick();
    let running = 0;
    for (const w of works) {
      void w.started.then(() => running++);
    }
    await tick();
    expect(running).toBe(2);
    const refused = slots.run('a', () => Promise.resolve('never'));
    await expect(refused).rejects.toBeInstanceOf(RetryLaterError);
    await expect(refused).rejects.toMatchObject({
      code: 'too-many',
      retryAfterSeconds: expect.any(Number) as unknown,
      message: expect.stringContaining('ANALYTICS_CONCURRENCY (2) are running and 8 more are waiting') as unknown,
    });
    // The queue moves on as work finishes, in the order it came.
    works[0].finish();
    await works[2].started;
    for (const w of works) {
      w.finish();
    }
    expect(await Promise.all(answers)).toEqual(works.map((_, i) => i));
    // Nothing held any more: a new request runs at once.
    expect(await slots.run('a', () => Promise.resolve('again'))).toBe('again');
  });

  it("never queues a customer's work behind another customer's full slots and queue", async () => {
    const slots = slotsOf(1);
    const flood = Array.from({ length: 1 + QUEUE_PER_SLOT }, () => held('a'));
    const floods = flood.map((w) => slots.run('a', w.work));
    await expect(slots.run('a', () => Promise.resolve('a'))).rejects.toBeInstanceOf(RetryLaterError);
    expect(await slots.run('b', () => Promise.resolve('b'))).toBe('b');
    for (const w of flood) {
      w.finish();
    }
    await Promise.all(floods);
  });

  it('holds the slot of an answer streamed after its work until the stream has closed', async () => {
    const slots = slotsOf(1);
    const stream = new PassThrough();
    const answer = await slots.run(
      'a',
      () => Promise.resolve({ stream }),
      (a) => a.stream,
    );
    expect(answer.stream).toBe(stream);
    let second = false;
    const next = slots.run('a', () => Promise.resolve((second = true)));
    await tick();
    expect(second).toBe(false);
    stream.destroy(); // a client that left
    await next;
    expect(second).toBe(true);
  });

  it('gives the slot back when the work fails', async () => {
    const slots = slotsOf(1);
    await expect(slots.run('a', () => Promise.reject(new Error('storage')))).rejects.toThrow('storage');
    expect(await slots.run('a', () => Promise.resolve('ok'))).toBe('ok');
  });

  it('runs each slot in a lane whose queries use at least one thread', async () => {
    lanes.length = 0;
    await slotsOf(1000).run('a', () => Promise.resolve());
    expect(lanes).toEqual([{ maxThreads: 1 }]);
  });
});
