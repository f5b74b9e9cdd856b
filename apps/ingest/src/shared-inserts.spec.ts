import type { RejectedEventRow } from '@app/contracts';
import type { IntakeKind } from '@app/intake';
import type { KafkaRow } from './kafka-message';
import { SharedInserts, sharedToken, type BatchInsert } from './shared-inserts';

const events = { topic: 'events' } as unknown as IntakeKind<KafkaRow>;
const documents = { topic: 'documents' } as unknown as IntakeKind<KafkaRow>;
/** A batch of `rows` rows, of which the last `rejected` are rejected items (they count against the cap too). */
const batch = (token: string, rows: number, generation: number | null = 1, kind = events, rejected = 0, bytes = 0): BatchInsert => ({
  kind,
  rows: Array.from({ length: rows - rejected }, (_, i) => ({ offset: i }) as KafkaRow),
  rejected: Array.from({ length: rejected }, (_, i) => ({ offset: rows - rejected + i }) as RejectedEventRow),
  token,
  generation,
  bytes,
});

/** The inserts a SharedInserts sent, held until `release(i)`. */
function recording(maxRows: number, maxWaitingBytes?: number) {
  const sent: Array<{ token: string; rows: number }> = [];
  const gates: Array<() => void> = [];
  const shared = new SharedInserts(
    (group) =>
      new Promise<void>((resolve) => {
        sent.push({ token: group.token, rows: group.rows.length + group.rejected.length });
        gates.push(resolve);
      }),
    maxRows,
    maxWaitingBytes,
  );
  return { shared, sent, release: (i: number) => gates[i]() };
}

describe('SharedInserts', () => {
  it('sends the batches that waited together, in order, up to maxRows; a batch over it alone', async () => {
    const { shared, sent, release } = recording(10);
    const done = [
      batch('a', 4),
      batch('b', 6, 1, events, 2),
      batch('c', 3, 1, events, 3),
      batch('d', 7),
      batch('e', 12),
      batch('f', 1),
    ].map((b) => shared.insert(b));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([{ token: 'a', rows: 4 }]); // one insert at a time
    for (let i = 0; i < 5; i++) {
      release(i); // the next group is sent once this one settled
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(done);
    expect(sent).toEqual([
      { token: 'a', rows: 4 },
      { token: sharedToken(['b', 'c']), rows: 9 },
      { token: 'd', rows: 7 },
      { token: 'e', rows: 12 },
      { token: 'f', rows: 1 },
    ]);
  });

  it('never mixes kinds or generations, and settles every batch of a group with the group', async () => {
    const sent: string[] = [];
    const shared = new SharedInserts((group) => {
      sent.push(group.token);
      return group.token === sharedToken(['y', 'z']) ? Promise.reject(new Error('storage down')) : Promise.resolve();
    });
    const results = await Promise.allSettled(
      [batch('a', 1), batch('b', 1, 2), batch('c', 1, 2), batch('d', 1, 2, documents), batch('e', 2)].map((b) => shared.insert(b)),
    );
    expect(sent).toEqual(['a', sharedToken(['b', 'c']), 'd', 'e']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);

    const failed = await Promise.allSettled([batch('x', 1), batch('y', 1), batch('z', 1)].map((b) => shared.insert(b)));
    expect(failed.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
  });

  it('has room while the rows waiting (not those being sent) are fewer than maxRows', async () => {
    const { shared, release } = recording(10);
    expect(shared.hasRoom()).toBe(true);
    const done = [shared.insert(batch('a', 8))]; // sent at once: nothing waits
    await new Promise((r) => setImmediate(r));
    expect(shared.hasRoom()).toBe(true);
    done.push(shared.insert(batch('b', 6, 1, events, 3)));
    expect(shared.hasRoom()).toBe(true);
    done.push(shared.insert(batch('c', 4)));
    expect(shared.hasRoom()).toBe(false); // 10 rows wait
    release(0);
    await new Promise((r) => setImmediate(r));
    expect(shared.hasRoom()).toBe(true); // b and c are being sent
    release(1);
    await Promise.all(done);
  });

  it('has no room once the messages waiting hold maxWaitingBytes, also of batches that store nothing', async () => {
    const { shared, release } = recording(10, 100);
    const done = [shared.insert(batch('a', 1, 1, events, 0, 500))]; // being sent: not counted
    await new Promise((r) => setImmediate(r));
    done.push(shared.insert(batch('b', 0, 1, events, 0, 60))); // stored already: no row, its messages held
    expect(shared.hasRoom()).toBe(true);
    done.push(shared.insert(batch('c', 0, 1, events, 0, 40)));
    expect(shared.hasRoom()).toBe(false);
    release(0);
    await new Promise((r) => setImmediate(r));
    expect(shared.hasRoom()).toBe(true);
    release(1);
    await Promise.all(done);
  });

  it('names exactly the batches of a group in its token', () => {
    expect(sharedToken(['a'])).toBe('a');
    expect(sharedToken(['a', 'b'])).toMatch(/^shared:[0-9a-f]{32}$/);
    expect(sharedToken(['a', 'b'])).toBe(sharedToken(['a', 'b']));
    expect(new Set([sharedToken(['a', 'b']), sharedToken(['b', 'a']), sharedToken(['a', 'b', 'c'])]).size).toBe(3);
  });
});
