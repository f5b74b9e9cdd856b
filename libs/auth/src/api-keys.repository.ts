import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import type { Permission } from './permissions';

export interface ApiKey {
  id: string;
  customer: string;
  description: string;
  permissions: Permission[];
  secret: string;
  legacy: boolean;
  revoked: boolean;
  createdAt: number;
}

type ApiKeyRow = Omit<ApiKey, 'createdAt'> & { created_at: string };

/**
 * API keys as append-only versioned rows; a key's state is its latest version. Active keys are cached per
 * customer for at most CACHE_TTL_MS, so a key revoked by another process stops working within that time;
 * the process that revokes drops its cache at once.
 */
@Injectable()
export class ApiKeysRepository {
  static readonly CACHE_TTL_MS = 2_000;
  private readonly active = new LRUCache<string, ApiKey[]>({ max: 10_000, ttl: ApiKeysRepository.CACHE_TTL_MS });

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** Latest version of every key of the customer, revoked ones included. */
  async all(customer: string): Promise<ApiKey[]> {
    const rows = await this.ch.query<ApiKeyRow>(
      `SELECT id, customer, description, permissions, secret, legacy, revoked, created_at
       FROM ${this.ch.table('api_keys')}
       WHERE customer = {customer:String}
       ORDER BY id, version DESC LIMIT 1 BY id`,
      { customer },
    );
    return rows
      .map(({ created_at, ...key }) => ({ ...key, createdAt: fromChDateTime(created_at) }))
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async activeKeys(customer: string): Promise<ApiKey[]> {
    const hit = this.active.get(customer);
    if (hit) return hit;
    const keys = (await this.all(customer)).filter((k) => !k.revoked);
    this.active.set(customer, keys);
    return keys;
  }

  async find(customer: string, id: string): Promise<ApiKey | undefined> {
    return (await this.all(customer)).find((k) => k.id === id);
  }

  /** Appends a version of the key and returns it as stored (permissions de-duplicated and sorted). */
  async save(input: ApiKey): Promise<ApiKey> {
    const key = { ...input, permissions: [...new Set(input.permissions)].sort() };
    const [version] = await this.clock.next();
    await this.ch.insert('api_keys', [
      {
        customer: key.customer,
        id: key.id,
        version,
        description: key.description,
        permissions: key.permissions,
        secret: key.secret,
        legacy: key.legacy,
        revoked: key.revoked,
        created_at: chDateTime(key.createdAt),
        changed_at: chDateTime(),
      },
    ]);
    this.active.delete(key.customer);
    return key;
  }
}
