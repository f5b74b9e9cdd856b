import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '@app/config';
import { DataVersions } from '@app/intake';
import { MetricsService } from '@app/metrics';
import { AnalyticsSlots } from './analytics-slots';

/** The shortest time between two sweeps: a very short SEARCH_TERMS_CACHE_MS does not make a busy timer. */
const SWEEP_MIN_MS = 1_000;

/**
 * Answers of the analytics endpoints, cached per request and resolved window: admin screens repeat the same
 * request, and the embedded engine runs one query at a time. An entry is dropped as soon as this process writes
 * events or entities of the instance (DataVersions) and lives at most SEARCH_TERMS_CACHE_MS otherwise (writes of
 * a separate ingest process). SEARCH_TERMS_CACHE_MS=0 turns it off. Hits and misses are counted in /metrics
 * (search_terms_cache_hits_total, search_terms_cache_misses_total) by answer, the first element of the key. A
 * missed answer is computed in one of the customer's analytics slots (AnalyticsSlots); a hit takes none.
 *
 * Expired entries are swept on a timer (every SEARCH_TERMS_CACHE_MS, at least every SWEEP_MIN_MS), so an answer
 * is not held for long after it expires when no request comes to push it out; the timer does not keep the
 * process alive and stops with the app.
 */
@Injectable()
export class AnswerCache implements OnModuleDestroy {
  private readonly cache?: LRUCache<string, object>;
  private readonly sweeper?: NodeJS.Timeout;

  constructor(
    private readonly versions: DataVersions,
    private readonly metrics: MetricsService,
    private readonly slots: AnalyticsSlots,
    config: AppConfig,
  ) {
    const ttl = config.searchTermsCacheMs;
    if (ttl > 0) {
      const cache = new LRUCache<string, object>({ max: 5_000, ttl });
      this.cache = cache;
      this.sweeper = setInterval(() => cache.purgeStale(), Math.max(ttl, SWEEP_MIN_MS)).unref();
    }
  }

  /** The entries held, expired ones not yet swept included. */
  get size(): number {
    return this.cache?.size ?? 0;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
    this.cache?.clear();
  }

  /** The cached answer for `key` (the answer's name, then any JSON values naming the request and its window), or a computed one. */
  async get<T extends object>(
    scope: { customer: string; instance: string },
    key: readonly [answer: string, ...rest: unknown[]],
    compute: () => Promise<T>,
  ): Promise<T> {
    const id = JSON.stringify([key, scope.customer, scope.instance, this.versions.get(scope.customer, scope.instance)]);
    const cached = this.cache?.get(id);
    if (cached) {
      this.metrics.answerCacheHits.inc({ answer: key[0] });
      return cached as T;
    }
    this.metrics.answerCacheMisses.inc({ answer: key[0] });
    const answer = await this.slots.run(scope.customer, compute);
    this.cache?.set(id, answer);
    return answer;
  }
}
