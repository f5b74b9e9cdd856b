import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '@app/config';
import { RetryLaterError } from '@app/errors';
import { clientAddress, clientKey } from './failed-auth.limiter';

const MINUTE_MS = 60_000;
/** Addresses whose window is kept before the ended ones are swept out. */
const SWEEP_AT = 10_000;

/**
 * COLLECT_ROWS_PER_MINUTE: the interactions `POST /1/events` stores per client address (the one TRUST_PROXY gives,
 * IPv6 per /64), per minute and process, one per object of an event. COLLECT_PER_MINUTE counts requests, but one
 * request may carry 1,000 events of 20 objects, 20,000 rows (docs/security.md). A window per address begins with its
 * first request and lasts a minute; a request that would go beyond it stores nothing.
 */
@Injectable()
export class CollectedRows {
  private readonly windows = new Map<string, { until: number; rows: number }>();

  constructor(private readonly config: AppConfig) {}

  /** Counts the request's rows against its address's budget, or throws 429 with the seconds until it has room. */
  take(req: IncomingMessage, rows: number, now = Date.now()): void {
    const limit = this.config.collectRowsPerMinute;
    if (limit === 0) {
      return;
    }
    if (this.windows.size >= SWEEP_AT) {
      for (const [key, window] of this.windows) {
        if (window.until <= now) {
          this.windows.delete(key);
        }
      }
    }
    const key = clientKey(clientAddress(req));
    let window = this.windows.get(key);
    if (!window || window.until <= now) {
      window = { until: now + MINUTE_MS, rows: 0 };
      this.windows.set(key, window);
    }
    if (window.rows + rows > limit) {
      throw new RetryLaterError(
        `Too many events: at most ${limit} clicks, conversions and views (one per object) a minute from this address ` +
          `(COLLECT_ROWS_PER_MINUTE), and this request has ${rows}; retry after Retry-After seconds`,
        Math.max(1, Math.ceil((window.until - now) / 1000)),
      );
    }
    window.rows += rows;
  }
}
