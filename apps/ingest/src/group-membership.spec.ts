import { GroupMembership, heartbeatIntervalMs } from './group-membership';

describe('GroupMembership', () => {
  it('is not joined before the first join, nor after a crash, a disconnect or a stop until it joins again', () => {
    const group = new GroupMembership(6000);
    expect(group.state(0)).toEqual({ joined: false, reason: 'the consumer group has not been joined yet' });
    group.joined(1000);
    expect(group.state(1000)).toEqual({ joined: true });
    group.left('the consumer crashed (connection refused)');
    group.heartbeat(1500); // a heartbeat answer in flight when it crashed does not make it a member again
    expect(group.state(1500)).toEqual({ joined: false, reason: 'the consumer crashed (connection refused)' });
    group.joined(9000);
    expect(group.state(9000)).toEqual({ joined: true });
  });

  it('counts a member whose heartbeats went unanswered for longer than the bound as not joined', () => {
    const group = new GroupMembership(6000);
    expect(group.boundMs).toBe(4000); // two heartbeat intervals of 2 s
    group.joined(0);
    group.heartbeat(2000);
    expect(group.state(6000)).toEqual({ joined: true });
    expect(group.state(6001)).toEqual({
      joined: false,
      reason: 'no heartbeat answered for 4001 ms (the broker out of reach, or the group rebalancing)',
    });
    group.heartbeat(7000);
    expect(group.state(7000)).toEqual({ joined: true });
  });

  it.each([1000, 3000, 6000, 9000, 10_000, 30_000, 300_000])(
    'with a session timeout of %i ms: notices before the broker drops the member, and tolerates a late heartbeat',
    (sessionTimeoutMs) => {
      const { boundMs } = new GroupMembership(sessionTimeoutMs);
      expect(boundMs).toBeLessThan(sessionTimeoutMs);
      expect(boundMs).toBeGreaterThanOrEqual(2 * heartbeatIntervalMs(sessionTimeoutMs));
    },
  );

  it('heartbeats every 3 s, or a third of a shorter session timeout', () => {
    expect(heartbeatIntervalMs(10_000)).toBe(3000);
    expect(heartbeatIntervalMs(6000)).toBe(2000);
    expect(heartbeatIntervalMs(1000)).toBe(333);
  });
});
