import { PartitionStates } from './partition-states';

describe('PartitionStates', () => {
  const opened: number[] = [];
  const states = new PartitionStates((_topic, _partition, first) => {
    opened.push(first);
    return Promise.resolve({ ledger: {} as never });
  });

  it('reads a partition once while batches move forward, again when a batch goes back or failed', async () => {
    const first = await states.get('t', 0, 0);
    first.handledThrough = 99;
    expect(await states.get('t', 0, 100)).toBe(first);
    const again = await states.get('t', 0, 50); // fetched again without a rejoin
    expect(again).not.toBe(first);
    again.handledThrough = 120;
    states.drop('t', 0); // the batch failed
    await states.get('t', 0, 121);
    expect(opened).toEqual([0, 50, 121]);
  });
});
