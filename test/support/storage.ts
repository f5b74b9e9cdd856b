import { SearchEventsRepository, type StoredCounts } from '@app/intake';
import type { TestApp } from './test-app';

export type { StoredCounts };

export function storedCounts(t: TestApp, customer = 'demo'): Promise<StoredCounts> {
  return t.app.get(SearchEventsRepository).counts(customer);
}

/** Polls until `check` holds or the time is up; returns the last value either way. */
export async function eventually<T>(read: () => T | Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}
