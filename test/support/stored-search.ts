import { chDateTime, type SearchEventRow } from '@app/contracts';

const HOUR = 3_600_000;

/**
 * A row of search_events as the intake stores it, for tests that write the table directly (migrations over stored
 * data): search `n` (its id), `agoHours` before now, of phrase `hat` in `de` with 3 hits, unless `extra` says otherwise.
 */
export function storedSearch(n: number, agoHours: number, extra: Partial<SearchEventRow> = {}): SearchEventRow {
  const now = Date.now();
  return {
    event_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    customer: 'demo',
    instance: 'live',
    ts: chDateTime(now - agoHours * HOUR),
    phrase: 'hat',
    raw_phrase: 'hat',
    language: 'de',
    hits: 3,
    bot: false,
    session_hash: '',
    source: 'http',
    topic: '',
    partition: 0,
    offset: 0,
    received_at: chDateTime(now),
    ...extra,
  };
}
