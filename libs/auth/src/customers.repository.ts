import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClickHouseService, VersionClock, chDateTime } from '@app/clickhouse';

export interface Customer {
  customer: string;
  /** The first is the default instance. */
  instances: string[];
  basicLogin: string;
  /** scrypt hash; empty when the customer has no Basic credentials. */
  basicPasswordHash: string;
}

interface CustomerRow {
  customer: string;
  instances: string[];
  basic_login: string;
  basic_password_hash: string;
}

/** Customers (installations) with their instances and Basic credentials; append-only rows. */
@Injectable()
export class CustomersRepository {
  // Short TTL: another process provisioning or changing a customer is seen within seconds.
  private readonly cache = new LRUCache<string, { value: Customer | null }>({ max: 10_000, ttl: 2_000 });

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  async find(customer: string): Promise<Customer | undefined> {
    const hit = this.cache.get(customer);
    if (hit) return hit.value ?? undefined;
    const rows = await this.ch.query<CustomerRow>(
      `SELECT customer, instances, basic_login, basic_password_hash FROM ${this.ch.table('customers')}
       WHERE customer = {customer:String} ORDER BY version DESC LIMIT 1`,
      { customer },
    );
    const value = rows[0]
      ? { customer: rows[0].customer, instances: rows[0].instances, basicLogin: rows[0].basic_login, basicPasswordHash: rows[0].basic_password_hash }
      : null;
    this.cache.set(customer, { value });
    return value ?? undefined;
  }

  async save(c: Customer): Promise<void> {
    const [version] = await this.clock.next();
    await this.ch.insert('customers', [
      {
        customer: c.customer,
        version,
        instances: c.instances,
        basic_login: c.basicLogin,
        basic_password_hash: c.basicPasswordHash,
        changed_at: chDateTime(),
      },
    ]);
    this.cache.delete(c.customer);
  }
}
