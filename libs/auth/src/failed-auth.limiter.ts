import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'http';
import * as ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '@app/config';

const WINDOW_MS = 60_000;
/** Bounds the memory an attacker with many addresses can make this take; the oldest windows go first. */
const MAX_ADDRESSES = 100_000;

/**
 * The client a failure is counted for: its IPv4 address, or the /64 network of an IPv6 address (one host
 * usually holds a whole /64, so counting single IPv6 addresses would let it try 2^64 times). IPv4-mapped IPv6
 * addresses count as their IPv4 address.
 */
export function clientKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) {
    return address ?? '(unknown)';
  }
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') {
    return parsed.toString();
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    return v6.toIPv4Address().toString();
  }
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/** The address a request came from (the TCP peer). */
export function clientAddress(req: IncomingMessage): string | undefined {
  return (req as { ip?: string }).ip ?? req.socket?.remoteAddress;
}

/**
 * Failed authentications per client address over a fixed one-minute window (AUTH_FAILURES_PER_MINUTE), apart
 * from the customers' budgets: bad credentials sent from one address make only that address wait, never the
 * customer's valid requests from elsewhere. In memory, per process.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly windows = new LRUCache<string, { failures: number; endsAt: number }>({ max: MAX_ADDRESSES, ttl: WINDOW_MS });

  constructor(private readonly config: AppConfig) {}

  /** Seconds until the client may try again; 0 when it may now. */
  retryAfter(address: string | undefined): number {
    const limit = this.config.authFailuresPerMinute;
    const window = limit > 0 ? this.windows.get(clientKey(address)) : undefined;
    if (!window || window.failures < limit) {
      return 0;
    }
    return Math.max(1, Math.ceil((window.endsAt - Date.now()) / 1000));
  }

  recordFailure(address: string | undefined): void {
    if (this.config.authFailuresPerMinute === 0) {
      return;
    }
    const key = clientKey(address);
    const window = this.windows.get(key);
    if (window) {
      window.failures++;
    } else {
      this.windows.set(key, { failures: 1, endsAt: Date.now() + WINDOW_MS });
    }
  }

  /**
   * Counts an expensive attempt (a password to hash) as a failure when it starts, so attempts sent all at once
   * cannot outrun the limit; `succeeded` takes it back, an attempt that fails stays counted. Undefined when the
   * address has no attempt left.
   */
  attempt(address: string | undefined): { succeeded(): void } | undefined {
    if (this.retryAfter(address) > 0) {
      return undefined;
    }
    this.recordFailure(address);
    const window = this.windows.get(clientKey(address));
    return {
      succeeded: () => {
        if (window && window.failures > 0) {
          window.failures--;
        }
      },
    };
  }
}
