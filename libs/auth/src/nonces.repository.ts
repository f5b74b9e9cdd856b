import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClickHouseService } from '@app/clickhouse';
import { compositeKey } from '@app/contracts';

/**
 * Nonces seen in the last 24 h, per customer: an in-process cache in front of a shared table, so a replay
 * is refused by every process. Two processes receiving the same nonce within the same few milliseconds can
 * both accept it; docs/decisions.md states that limit.
 */
@Injectable()
export class NoncesRepository {
  static readonly WINDOW_MS = 24 * 60 * 60 * 1000;
  private readonly recent = new LRUCache<string, true>({ max: 1_000_000, ttl: NoncesRepository.WINDOW_MS });

  constructor(private readonly ch: ClickHouseService) {}

  /**
   * Whether this process has seen the nonce in the last 24 h: asked before a body is read, from memory only, so a
   * request whose signature is not verified yet never costs a storage query.
   */
  seen(customer: string, nonce: string): boolean {
    return this.recent.has(compositeKey(customer, nonce));
  }

  /**
   * Records the nonce of a request whose signature matched and returns true, or returns false when it was used
   * before: by this process (also a request with the same nonce a moment ago) or, through the shared table, by
   * another.
   */
  async use(customer: string, nonce: string): Promise<boolean> {
    const key = compositeKey(customer, nonce);
    if (this.recent.has(key)) {
      return false;
    }
    this.recent.set(key, true);
    const rows = await this.ch.query<{ n: number }>(
      `SELECT 1 AS n FROM ${this.ch.table('used_nonces')}
       WHERE customer = {customer:String} AND nonce = {nonce:String} AND used_at > now() - INTERVAL 1 DAY LIMIT 1`,
      { customer, nonce },
    );
    if (rows.length > 0) {
      return false;
    }
    await this.ch.insert('used_nonces', [{ customer, nonce, used_at: Math.floor(Date.now() / 1000) }]);
    return true;
  }
}
