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
  private readonly seen = new LRUCache<string, true>({ max: 1_000_000, ttl: NoncesRepository.WINDOW_MS });

  constructor(private readonly ch: ClickHouseService) {}

  /** Whether the nonce was used in the last 24 h, by this process or another: asked before a body is read. */
  async used(customer: string, nonce: string): Promise<boolean> {
    if (this.seen.has(compositeKey(customer, nonce))) return true;
    const rows = await this.ch.query<{ n: number }>(
      `SELECT 1 AS n FROM ${this.ch.table('used_nonces')}
       WHERE customer = {customer:String} AND nonce = {nonce:String} AND used_at > now() - INTERVAL 1 DAY LIMIT 1`,
      { customer, nonce },
    );
    return rows.length > 0;
  }

  /**
   * Records a nonce that `used` found unused and returns true, or returns false when a request with the same nonce
   * was recorded meanwhile (two at once: the second loses, within a process).
   */
  async use(customer: string, nonce: string): Promise<boolean> {
    const key = compositeKey(customer, nonce);
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    await this.ch.insert('used_nonces', [{ customer, nonce, used_at: Math.floor(Date.now() / 1000) }]);
    return true;
  }
}
