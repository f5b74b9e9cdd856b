import { BatchAbandonedError, backoffMs, retryUntilDone, settledWithHeartbeats } from './retry-policy';

const rebalance = Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });

describe('settledWithHeartbeats', () => {
  it('hands a rebalance to kafkajs only after the insert in flight settled', async () => {
    const events: string[] = [];
    const insert = new Promise<void>((resolve) => setTimeout(() => (events.push('insert landed'), resolve()), 1500));
    const abandon = jest.fn();
    const heartbeat = () => {
      events.push('heartbeat');
      return Promise.reject(rebalance);
    };
    await expect(settledWithHeartbeats(insert, { heartbeat, owned: () => true, abandon })).rejects.toBe(rebalance);
    events.push('returned to kafkajs');
    expect(events).toEqual(['heartbeat', 'insert landed', 'returned to kafkajs']);
    expect(abandon).toHaveBeenCalledTimes(1);
  });

  it('abandons the work when the consumer stops owning the batch, and returns once it settled', async () => {
    const abandon = jest.fn();
    let landed = false;
    const insert = new Promise<void>((resolve) => setTimeout(() => ((landed = true), resolve()), 1500));
    const err = await settledWithHeartbeats(insert, { heartbeat: () => Promise.resolve(), owned: () => false, abandon }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BatchAbandonedError);
    expect([landed, abandon.mock.calls.length]).toEqual([true, 1]);
  });

  it('hands any other heartbeat failure to kafkajs as a rebalance, so it rejoins', async () => {
    const timeout = new Error('Request Heartbeat timed out');
    const err = await settledWithHeartbeats(new Promise((r) => setTimeout(r, 1200)), {
      heartbeat: () => Promise.reject(timeout),
      owned: () => true,
      abandon: jest.fn(),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchAbandonedError);
  });

  it('resolves with the insert and heartbeats while it waits', async () => {
    const heartbeat = jest.fn(() => Promise.resolve());
    await settledWithHeartbeats(new Promise((r) => setTimeout(r, 2200)), { heartbeat, owned: () => true, abandon: jest.fn() });
    expect(heartbeat).toHaveBeenCalledTimes(2);
  });
});

describe('retryUntilDone', () => {
  it('sends no attempt once abandoned, and the error makes kafkajs rejoin', async () => {
    let abandoned = false;
    const attempt = jest.fn(() => {
      abandoned = true; // the group rebalanced while this attempt failed
      return Promise.reject(new Error('storage down'));
    });
    const err = await retryUntilDone(attempt, { abandoned: () => abandoned, onFailure: jest.fn() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchAbandonedError);
    expect((err as BatchAbandonedError).type).toBe('REBALANCE_IN_PROGRESS');
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('retries until the attempt succeeds', async () => {
    let calls = 0;
    const result = await retryUntilDone(() => (++calls < 3 ? Promise.reject(new Error('down')) : Promise.resolve('stored')), {
      abandoned: () => false,
      onFailure: jest.fn(),
    });
    expect([result, calls]).toEqual(['stored', 3]);
  });

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 10, 20].map((n) => backoffMs(n, 10_000, () => 1))).toEqual([200, 400, 800, 10_000, 10_000]);
  });
});
