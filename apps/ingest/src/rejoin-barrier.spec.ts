import { Kafka, logLevel } from 'kafkajs';
import { afterBarriers, barrierAssigner, confirmMembership, installRejoinBarrier, type KafkaGroup } from './rejoin-barrier';

describe('rejoin barrier', () => {
  it('runs the group method only after the barriers of its assigners settled', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const barrier = () => new Promise<void>((resolve) => (release = resolve)).then(() => void calls.push('barrier'));
    const assigner = barrierAssigner(barrier)({ groupId: 'g', logger: undefined as never, cluster: undefined as never });
    const join = afterBarriers(function (this: unknown) {
      calls.push('join');
      return Promise.resolve('joined');
    });
    const joined = join.call({ assigners: [assigner] } as never);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([]); // still waiting for what is in flight
    release();
    await expect(joined).resolves.toBe('joined');
    expect(calls).toEqual(['barrier', 'join']);
  });

  it('keeps the round-robin protocol (a member of the same group without the barrier assigns alike)', () => {
    const assigner = barrierAssigner(() => Promise.resolve())({ groupId: 'g', logger: undefined as never, cluster: undefined as never });
    expect(assigner.name).toBe('RoundRobinAssigner');
    expect(typeof assigner.assign).toBe('function');
  });

  it("patches kafkajs' ConsumerGroup in place (the internal module this relies on still exists)", () => {
    installRejoinBarrier();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { prototype } = require('kafkajs/src/consumer/consumerGroup') as { prototype: Record<string, { name: string }> };
    expect(prototype.joinAndSync.name).not.toBe('joinAndSync');
    expect(prototype.leave.name).not.toBe('leave');
    // Consumers are still created as before.
    expect(() => new Kafka({ brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING }).consumer({ groupId: 'x' })).not.toThrow();
  });
});

describe('confirmMembership (right before an insert is sent)', () => {
  const group = (heartbeat: jest.Mock): KafkaGroup => ({
    groupId: 'g',
    memberId: 'm-1',
    generationId: 7,
    coordinator: { heartbeat },
  });

  it('sends a heartbeat of its own for the member and the generation that fetched the batch', async () => {
    const heartbeat = jest.fn().mockResolvedValue({});
    await confirmMembership(group(heartbeat), 7);
    expect(heartbeat).toHaveBeenCalledWith({ groupId: 'g', memberId: 'm-1', groupGenerationId: 7 });
  });

  it('fails when the coordinator no longer knows the member (paused past the session timeout) or rebalances', async () => {
    const unknown = Object.assign(new Error('The coordinator is not aware of this member'), { type: 'UNKNOWN_MEMBER_ID' });
    await expect(confirmMembership(group(jest.fn().mockRejectedValue(unknown)), 7)).rejects.toThrow('not aware of this member');
  });

  it('fails without asking when the group moved to another generation or was never joined', async () => {
    const heartbeat = jest.fn().mockResolvedValue({});
    await expect(confirmMembership(group(heartbeat), 6)).rejects.toThrow('from generation 6 to 7');
    await expect(confirmMembership(undefined, 7)).rejects.toThrow('not a member');
    await expect(confirmMembership({ ...group(heartbeat), memberId: null }, 7)).rejects.toThrow('not a member');
    expect(heartbeat).not.toHaveBeenCalled();
  });
});
