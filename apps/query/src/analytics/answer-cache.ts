import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '@app/config';
import { DataVersions } from '@app/intake';

/**
 * Answers of the analytics endpoints, cached per request and resolved window: admin screens repeat the same
 * request, and the embedded engine runs one query at a time. An entry is dropped as soon as this process writes
 * events or entities of the instance (DataVersions) and lives at most SEARCH_TERMS_CACHE_MS otherwise (writes of
 * a separate ingest process). SEARCH_TERMS_CACHE_MS=0 turns it off.
 */
@Injectable()
export class AnswerCache {
  private readonly cache?: LRUCache<string, object>;

  constructor(
    private readonly versions: DataVersions,
    config: AppConfig,
  ) {
    if (config.searchTermsCacheMs > 0) this.cache = new LRUCache<string, object>({ max: 5_000, ttl: config.searchTermsCacheMs });
  }

  /** The cached answer for `key` (any JSON value naming the request and its window), or a computed one. */
  async get<T extends object>(scope: { customer: string; instance: string }, key: unknown, compute: () => Promise<T>): Promise<T> {
    const id = JSON.stringify([key, scope.customer, scope.instance, this.versions.get(scope.customer, scope.instance)]);
    const cached = this.cache?.get(id);
    if (cached) return cached as T;
    const answer = await compute();
    this.cache?.set(id, answer);
    return answer;
  }
}
