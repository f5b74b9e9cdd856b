import { HttpException, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '@app/config';
import { RetryLaterError } from '@app/errors';
import { clientAddress, clientKey } from './failed-auth.limiter';

const MINUTE_MS = 60_000;
/** Addresses whose windows are kept at once (the least recently used go first); each window ends after a minute. */
const MAX_ADDRESSES = 100_000;
/** The most rows an event stores (Algolia's limit of objectIDs per event; more are rejected). */
export const MAX_ROWS_PER_EVENT = 20;

/**
 * COLLECT_ROWS_PER_MINUTE: the interactions `POST /1/events` stores per client address (the one TRUST_PROXY gives,
 * IPv6 per /64), per minute and process, one per object of an event. COLLECT_PER_MINUTE counts requests, but one
 * request may carry 1,000 events of 20 objects, 20,000 rows (docs/security.md). A window per address begins with its
 * first request and lasts a minute; a request that would go beyond it stores nothing, and one that stores nothing
 * (refused, or storage unavailable) gives its rows back.
 */
@Injectable()
export class CollectedRows {
  private readonly windows = new LRUCache<string, { until: number; rows: number }>({ max: MAX_ADDRESSES, ttl: MINUTE_MS });

  constructor(private readonly config: AppConfig) {}

  /**
   * Refuses a request (429) before its body is read when its address has spent its whole budget: a sender that goes
   * on makes the service parse nothing.
   */
  refuseSpent(req: IncomingMessage, now = Date.now()): void {
    const limit = this.config.collectRowsPerMinute;
    const window = limit === 0 ? undefined : this.windows.get(clientKey(clientAddress(req)));
    if (window && window.until > now && window.rows >= limit) {
      throw this.tooMany(limit, window.until - now, 'its budget is spent');
    }
  }

  /**
   * Counts the request's rows against its address's budget and answers how to give them back; throws 429 with the
   * seconds until the budget has room, or 413 when the request alone is over it (waiting would never help).
   */
  take(req: IncomingMessage, rows: number, now = Date.now()): () => void {
    const limit = this.config.collectRowsPerMinute;
    if (limit === 0) {
      return () => undefined;
    }
    if (rows > limit) {
      throw new HttpException(
        `Too many events in one request: ${rows} clicks, conversions and views (one per object), more than ` +
          `COLLECT_ROWS_PER_MINUTE (${limit}) allows a minute; send fewer events per request`,
        413,
      );
    }
    const key = clientKey(clientAddress(req));
    let window = this.windows.get(key);
    if (!window || window.until <= now) {
      window = { until: now + MINUTE_MS, rows: 0 };
      this.windows.set(key, window);
    }
    if (window.rows + rows > limit) {
      throw this.tooMany(limit, window.until - now, `this request has ${rows}`);
    }
    const counted = window;
    counted.rows += rows;
    return () => {
      counted.rows = Math.max(0, counted.rows - rows);
    };
  }

  private tooMany(limit: number, waitMs: number, why: string): RetryLaterError {
    return new RetryLaterError(
      `Too many events: at most ${limit} clicks, conversions and views (one per object) a minute from this address ` +
        `(COLLECT_ROWS_PER_MINUTE), and ${why}; retry after Retry-After seconds`,
      Math.max(1, Math.ceil(waitMs / 1000)),
    );
  }
}
