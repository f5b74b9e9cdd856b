import { randomUUID } from 'node:crypto';
import { DEDUP_WINDOW, RecentEventIds } from './recent-event-ids';

describe('RecentEventIds', () => {
  it('knows the ids of the last DEDUP_WINDOW events and forgets older ones', () => {
    const ids = Array.from({ length: DEDUP_WINDOW + 5 }, () => randomUUID());
    const recent = new RecentEventIds(ids.slice(0, 3));
    for (const id of ids.slice(3)) recent.add(id);
    expect(ids.slice(0, 5).map((id) => recent.has(id))).toEqual([false, false, false, false, false]);
    expect(ids.slice(5).every((id) => recent.has(id))).toBe(true);
    expect(recent.has(randomUUID())).toBe(false);
  });
});
