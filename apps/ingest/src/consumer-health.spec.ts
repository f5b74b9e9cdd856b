import { PartitionProgress } from './consumer-health';

const S = 1000;
const THRESHOLD = 60 * S;

describe('PartitionProgress', () => {
  /** One partition, assigned and probed at t=0 with nothing waiting (end 100, committed 100). */
  const caughtUp = () => {
    const lags: Array<[string, number, number | undefined]> = [];
    const progress = new PartitionProgress((topic, partition, lag) => lags.push([topic, partition, lag]));
    progress.assign([{ topic: 't', partition: 0 }], 0);
    progress.probed('t', 0, { end: 100, committed: 100 }, 0, 0);
    expect(lags.splice(0)).toEqual([['t', 0, 0]]); // an assigned partition is published at once
    return { progress, lags };
  };

  it('does not count an idle spell longer than the threshold against a burst that follows it', () => {
    const { progress } = caughtUp();
    expect(progress.health(true, THRESHOLD, 70 * S)).toEqual({ running: true, stalled: false, lag: 0, sinceProgressMs: 0 });
    // 70 s without traffic, then a burst: fetched at once (a batch starts) ...
    progress.fetched('t', 0, 5100, 100, 70 * S);
    expect(progress.health(true, THRESHOLD, 71.6 * S)).toEqual({ running: true, stalled: false, lag: 5000, sinceProgressMs: 1.6 * S });
    // ... or seen by the broker probe only (a partition not fetched).
    const other = caughtUp().progress;
    other.probed('t', 0, { end: 5100, committed: 100 }, 70 * S, 70 * S);
    expect(other.health(true, THRESHOLD, 71.6 * S)).toMatchObject({ stalled: false, lag: 5000, sinceProgressMs: 1.6 * S });
  });

  it('reports messages waiting longer than the threshold without progress as stalled', () => {
    const { progress } = caughtUp();
    progress.fetched('t', 0, 5100, 100, 70 * S);
    expect(progress.health(true, THRESHOLD, 130 * S)).toMatchObject({ stalled: false, sinceProgressMs: 60 * S });
    expect(progress.health(true, THRESHOLD, 130 * S + 1)).toMatchObject({ stalled: true, lag: 5000, sinceProgressMs: 60 * S + 1 });
    // More messages arriving do not restart the clock: the oldest still wait.
    progress.fetched('t', 0, 6100, 100, 125 * S);
    expect(progress.health(true, THRESHOLD, 131 * S)).toMatchObject({ stalled: true, lag: 6000 });
  });

  it('restarts the clock of the messages still waiting at each commit, and stops it when none wait', () => {
    const { progress } = caughtUp();
    progress.fetched('t', 0, 5100, 100, 10 * S);
    progress.committed('t', 0, 2100, 50 * S);
    expect(progress.health(true, THRESHOLD, 100 * S)).toMatchObject({ stalled: false, lag: 3000, sinceProgressMs: 50 * S });
    progress.committed('t', 0, 5100, 101 * S);
    expect(progress.health(true, THRESHOLD, 500 * S)).toMatchObject({ stalled: false, lag: 0, sinceProgressMs: 0 });
  });

  it('counts the oldest waiting partition', () => {
    const progress = new PartitionProgress();
    progress.assign(
      [0, 1].map((partition) => ({ topic: 't', partition })),
      0,
    );
    progress.probed('t', 0, { end: 10, committed: 0 }, 5 * S, 5 * S);
    progress.probed('t', 1, { end: 10, committed: 0 }, 20 * S, 20 * S);
    expect(progress.health(true, THRESHOLD, 66 * S)).toEqual({ running: true, stalled: true, lag: 20, sinceProgressMs: 61 * S });
  });

  it('takes a probe sent before a commit as no older than what the commit said', () => {
    const { progress, lags } = caughtUp();
    progress.fetched('t', 0, 600, 100, 1 * S);
    // The probe is sent while the batch is inserted, the commit lands before its answer.
    progress.committed('t', 0, 600, 2 * S);
    progress.probed('t', 0, { end: 650, committed: 100 }, 1.5 * S, 2.5 * S);
    expect(progress.health(true, THRESHOLD, 3 * S).lag).toBe(50);
    // A probe sent after the last event is the truth, even when the offsets went back (a topic recreated).
    progress.probed('t', 0, { end: 20, committed: 0 }, 4 * S, 4 * S);
    expect(progress.health(true, THRESHOLD, 5 * S).lag).toBe(20);
    expect(lags).toEqual([
      ['t', 0, 500],
      ['t', 0, 0],
      ['t', 0, 50],
      ['t', 0, 20],
    ]);
  });

  it('keeps the partitions still assigned at a rebalance and forgets the others', () => {
    const { progress, lags } = caughtUp();
    progress.assign([{ topic: 't', partition: 1 }], 0);
    progress.probed('t', 1, { end: 10, committed: 0 }, 1 * S, 1 * S);
    progress.probed('t', 0, { end: 500, committed: 0 }, 1 * S, 1 * S); // no longer assigned: ignored
    expect(progress.assigned()).toEqual([{ topic: 't', partition: 1 }]);
    expect(progress.health(true, THRESHOLD, 2 * S).lag).toBe(10);
    expect(lags).toEqual([
      ['t', 0, undefined],
      ['t', 1, 0],
      ['t', 1, 10],
    ]);
  });
});
