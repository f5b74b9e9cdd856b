import { Injectable } from '@nestjs/common';
import { ClickHouseService, VersionClock, chDateTime } from '@app/clickhouse';
import { RefreshingCache } from './refreshing-cache';

export interface Customer {
  customer: string;
  /** The first is the default instance. */
  instances: string[];
  basicLogin: string;
  /** scrypt hash; empty when the customer has no Basic credentials. */
  basicPasswordHash: string;
  /**
   * The Basic credentials are the ones the first start generated and no one has signed in with them yet: every start
   * prints them again until then (ProvisioningService). Absent: false.
   */
  basicPending?: boolean;
}

interface CustomerRow {
  customer: string;
  instances: string[];
  basic_login: string;
  basic_password_hash: string;
  basic_pending: boolean;
}

/**
 * How long the set of customer names may answer "unknown" without asking storage: a customer provisioned by
 * another process (the CLI) is found within this time (the "within 5 s", with room for the query).
 */
export const UNKNOWN_CUSTOMER_TTL_MS = 4_000;

/** Customers (installations) with their instances and Basic credentials; append-only rows. */
@Injectable()
export class CustomersRepository {
  /**
   * Read again ahead of need (RefreshingCache): no request waits for storage while traffic is steady, a change by
   * another process is seen within CREDENTIALS_MAX_AGE_MS, and a flooding customer's requests share one read.
   */
  private readonly cache = new RefreshingCache<Customer>((customer) => this.load(customer));
  /**
   * The negative cache: the names of all customers, loaded at `loadedAt`. A name outside it is unknown without a
   * lookup until the set is older than UNKNOWN_CUSTOMER_TTL_MS, so unknown Host labels (one or many, from
   * anywhere) cost one storage query per that time at most. Customers are never deleted: a name in it stays known.
   */
  private names?: { known: Set<string>; loadedAt: number };
  private loadingNames?: Promise<Set<string>>;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /**
   * One read per customer however many requests wait for it: a flooding customer's requests must not each send a
   * query (on the embedded engine every query with parameters waits for the ones before it, another customer's too).
   */
  find(customer: string): Promise<Customer | undefined> {
    return this.cache.get(customer);
  }

  /** The stored customer as it is now, past the cache (for a write that must not undo a newer one). */
  findStored(customer: string): Promise<Customer | undefined> {
    this.cache.delete(customer);
    return this.cache.get(customer);
  }

  private async load(customer: string): Promise<Customer | undefined> {
    if (!(await this.exists(customer))) {
      return undefined;
    }
    const rows = await this.ch.query<CustomerRow>(
      `SELECT customer, instances, basic_login, basic_password_hash, basic_pending FROM ${this.ch.table('customers')}
       WHERE customer = {customer:String} ORDER BY version DESC LIMIT 1`,
      { customer },
    );
    if (!rows[0]) {
      return undefined;
    }
    return {
      customer: rows[0].customer,
      instances: rows[0].instances,
      basicLogin: rows[0].basic_login,
      basicPasswordHash: rows[0].basic_password_hash,
      basicPending: rows[0].basic_pending,
    };
  }

  private async exists(customer: string): Promise<boolean> {
    if (this.names?.known.has(customer)) {
      return true;
    }
    if (this.names && Date.now() - this.names.loadedAt < UNKNOWN_CUSTOMER_TTL_MS) {
      return false;
    }
    return (await this.loadNames()).has(customer);
  }

  /** One query however many requests wait for it; its start time is the set's age (a later insert is not in it). */
  private loadNames(): Promise<Set<string>> {
    this.loadingNames ??= (async () => {
      const loadedAt = Date.now();
      try {
        const rows = await this.ch.query<{ customer: string }>(`SELECT DISTINCT customer FROM ${this.ch.table('customers')}`);
        // Names saved by this process meanwhile stay known (customers are never deleted).
        const known = new Set([...(this.names?.known ?? []), ...rows.map((r) => r.customer)]);
        this.names = { known, loadedAt };
        return known;
      } finally {
        this.loadingNames = undefined;
      }
    })();
    return this.loadingNames;
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
        basic_pending: c.basicPending ?? false,
        changed_at: chDateTime(),
      },
    ]);
    this.cache.delete(c.customer);
    this.names?.known.add(c.customer);
  }
}
