import type { Admin } from 'kafkajs';
import { LagProbe } from './lag-probe';

describe('LagProbe', () => {
  const logs: string[] = [];
  let down = false;
  let admins = 0;
  const admin = () => {
    admins++;
    const refuse = () => (down ? Promise.reject(new Error('Connection refused')) : Promise.resolve());
    return {
      connect: refuse,
      disconnect: () => Promise.resolve(),
      fetchTopicOffsets: async () => {
        await refuse();
        return [
          { partition: 0, offset: '40', high: '40', low: '0' },
          { partition: 1, offset: '7', high: '7', low: '5' },
        ];
      },
      // Partition 1: nothing committed yet (-1), so consumption starts at the low watermark.
      fetchOffsets: async () => {
        await refuse();
        return [
          {
            topic: 't',
            partitions: [
              { partition: 0, offset: '30' },
              { partition: 1, offset: '-1' },
            ],
          },
        ];
      },
    } as unknown as Admin;
  };
  const probe = new LagProbe(admin, () => 'group', {
    warn: (m: string) => logs.push(`warn ${m}`),
    log: (m: string) => logs.push(`log ${m}`),
  });

  it('reads the end and committed offsets of the partitions asked for', async () => {
    expect(await probe.offsets([{ topic: 't', partition: 1 }])).toEqual([{ topic: 't', partition: 1, end: 7, committed: 5 }]);
    expect(await probe.offsets([])).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('logs once when the broker stops answering and once when it answers again, never throwing', async () => {
    down = true;
    for (let i = 0; i < 5; i++) {
      expect(await probe.offsets([{ topic: 't', partition: 0 }])).toBeUndefined();
    }
    expect(logs).toEqual(['warn lag probe failed (Connection refused); lag figures stay as they were until it answers again']);
    down = false;
    expect(await probe.offsets([{ topic: 't', partition: 0 }])).toEqual([{ topic: 't', partition: 0, end: 40, committed: 30 }]);
    expect(await probe.offsets([{ topic: 't', partition: 0 }])).toHaveLength(1);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toBe('log lag probe answers again');
    expect(admins).toBeGreaterThan(1); // a failed client is replaced
  });

  it('runs one probe at a time', async () => {
    const first = probe.offsets([{ topic: 't', partition: 0 }]);
    expect(await probe.offsets([{ topic: 't', partition: 0 }])).toBeUndefined();
    expect(await first).toHaveLength(1);
  });
});
