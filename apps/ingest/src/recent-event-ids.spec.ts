import { randomUUID } from 'node:crypto';
import { DEDUP_WINDOW, RecentEventIds } from './recent-event-ids';

describe('RecentEventIds', () => {
  it('knows the ids of the last DEDUP_WINDOW events and forgets older ones', () => {
    const ids = Array.from({ length: DEDUP_WINDOW + 5 }, () => randomUUID());
    const recent = new RecentEventIds(ids.slice(0, 3).map((event_id) => ({ customer: 'c', instance: 'i', event_id })));
    for (const id of ids.slice(3)) {
      recent.add('c', 'i', id);
    }
    expect(ids.slice(0, 5).map((id) => recent.has('c', 'i', id))).toEqual([false, false, false, false, false]);
    expect(ids.slice(5).every((id) => recent.has('c', 'i', id))).toBe(true);
    expect(recent.has('c', 'i', randomUUID())).toBe(false);
  });
});

describe('RecentEventIds keys', () => {
  it('tells apart time-ordered ids (UUIDv7) of the same millisecond, and the same id of other instances', () => {
    const recent = new RecentEventIds();
    recent.add('demo', 'live', '01936f5a-1b2c-7abc-8def-0123456789ab');
    expect(recent.has('demo', 'live', '01936f5a-1b2c-7fff-8def-0123456789ab')).toBe(false);
    expect(recent.has('demo', 'live', '01936f5a-1b2c-7abc-8def-0123456789ac')).toBe(false);
    expect(recent.has('other', 'live', '01936f5a-1b2c-7abc-8def-0123456789ab')).toBe(false);
    expect(recent.has('demo', 'live', '01936f5a-1b2c-7abc-8def-0123456789ab')).toBe(true);
  });
});
