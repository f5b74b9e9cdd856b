import { loadConfig } from '@app/config';
import { DataVersions } from '@app/intake';
import { MetricsService } from '@app/metrics';
import type { ClickHouseService } from '@app/clickhouse';
import { AnalyticsSlots } from './analytics-slots';
import { AnswerCache } from './answer-cache';

const SCOPE = { customer: 'demo', instance: 'live' };

function cacheFor(ttlMs: number): AnswerCache {
  const config = loadConfig({ SEARCH_TERMS_CACHE_MS: String(ttlMs) });
  // The slots run the computation as given: this spec is about the cache, not the storage lanes.
  const storage = { embedded: false, inLane: <T>(work: () => Promise<T>) => work() } as unknown as ClickHouseService;
  return new AnswerCache(new DataVersions(), new MetricsService(), new AnalyticsSlots(config, storage), config);
}

describe('AnswerCache', () => {
  it('drops an expired entry by itself, with no further insert or read', async () => {
    const cache = cacheFor(50);
    try {
      await cache.get(SCOPE, ['terms', 1], () => Promise.resolve({ answer: 1 }));
      await cache.get(SCOPE, ['terms', 2], () => Promise.resolve({ answer: 2 }));
      expect(cache.size).toBe(2);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(cache.size).toBe(0);
    } finally {
      cache.onModuleDestroy();
    }
  });

  it('answers from the cache before the entry expires', async () => {
    const cache = cacheFor(60_000);
    try {
      const compute = jest.fn(() => Promise.resolve({ answer: 1 }));
      await cache.get(SCOPE, ['terms', 1], compute);
      expect(await cache.get(SCOPE, ['terms', 1], compute)).toEqual({ answer: 1 });
      expect(compute).toHaveBeenCalledTimes(1);
    } finally {
      cache.onModuleDestroy();
    }
  });

  it('sweeps on a timer that does not keep the process alive and is cleared on shutdown', () => {
    const setSpy = jest.spyOn(global, 'setInterval');
    const clearSpy = jest.spyOn(global, 'clearInterval');
    try {
      const cache = cacheFor(1_000);
      expect(setSpy).toHaveBeenCalledTimes(1);
      const timer = setSpy.mock.results[0].value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      cache.onModuleDestroy();
      expect(clearSpy).toHaveBeenCalledWith(timer);
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
  });

  it('holds nothing and starts no timer when SEARCH_TERMS_CACHE_MS=0', async () => {
    const setSpy = jest.spyOn(global, 'setInterval');
    try {
      const cache = cacheFor(0);
      expect(setSpy).not.toHaveBeenCalled();
      await cache.get(SCOPE, ['terms', 1], () => Promise.resolve({ answer: 1 }));
      expect(cache.size).toBe(0);
      cache.onModuleDestroy();
    } finally {
      setSpy.mockRestore();
    }
  });
});
