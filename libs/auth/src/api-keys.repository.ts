import { Injectable } from '@nestjs/common';
import { ClickHouseService, VersionClock, chDateTime, fromChDateTime } from '@app/clickhouse';
import type { AuthContext } from './auth-context';
import { COLLECTOR_PERMISSION, PRESETS, type Permission, type PresetName } from './permissions';
import { RefreshingCache } from './refreshing-cache';

export interface ApiKey {
  id: string;
  customer: string;
  description: string;
  permissions: Permission[];
  /**
   * The instances the key is valid for (at least one); undefined: every instance of the customer, also ones added
   * later (what a key stored before keys had instances reads as). Stored as an empty array.
   */
  instances?: readonly string[];
  /** A collector key: the origins CORS is granted to (empty: any origin); absent on every other key. */
  origins?: readonly string[];
  /** The preset the key was made with; absent for a key made from permissions only (and for keys made before presets were kept). */
  preset?: PresetName;
  secret: string;
  legacy: boolean;
  revoked: boolean;
  createdAt: number;
}

type ApiKeyRow = Omit<ApiKey, 'createdAt' | 'instances' | 'origins' | 'preset'> & {
  instances: string[];
  origins: string[];
  preset: string;
  created_at: string;
};

/** A collector key (`preset: "collector"`): it authenticates `POST /1/events` only, and never signs HMAC. */
export function isCollectorKey(key: Pick<ApiKey, 'permissions'>): boolean {
  return key.permissions.includes(COLLECTOR_PERMISSION);
}

/** An analytics key (`preset: "analytics"`): its secret travels as it is, so it reads `GET /2/...` only, and never signs HMAC. */
export function isAnalyticsKey(key: Pick<ApiKey, 'preset'>): boolean {
  return key.preset === 'analytics';
}

/** A stored preset as the key's field: none for '' (made from permissions only) or a name this release does not know. */
function presetOf(stored: string): Pick<ApiKey, 'preset'> {
  return Object.hasOwn(PRESETS, stored) ? { preset: stored as PresetName } : {};
}

/**
 * Whether a credential may list and revoke the key: a credential that is not limited every key of its customer, a
 * limited one the keys whose instances all lie within its own (a key valid for every instance lies within none).
 */
export function keyInScope(key: Pick<ApiKey, 'instances'>, auth: Pick<AuthContext, 'limited' | 'instances'>): boolean {
  return !auth.limited || (key.instances !== undefined && key.instances.every((i) => auth.instances.includes(i)));
}

/**
 * API keys as append-only versioned rows; a key's state is its latest version. Active keys are kept in memory per
 * customer and read again ahead of need (RefreshingCache): no request reads them from storage while traffic is steady,
 * and a key revoked by another process stops working within CREDENTIALS_MAX_AGE_MS; the process that revokes drops
 * its entry at once. A key's instances never change after it is created, so a cached key limits its requests as the
 * stored one does.
 */
@Injectable()
export class ApiKeysRepository {
  private readonly active = new RefreshingCache<ApiKey[]>(async (customer) => (await this.all(customer)).filter((k) => !k.revoked));

  constructor(
    private readonly ch: ClickHouseService,
    private readonly clock: VersionClock,
  ) {}

  /** Latest version of every key of the customer, revoked ones included. */
  async all(customer: string): Promise<ApiKey[]> {
    const rows = await this.ch.query<ApiKeyRow>(
      `SELECT id, customer, description, permissions, instances, origins, preset, secret, legacy, revoked, created_at
       FROM ${this.ch.table('api_keys')}
       WHERE customer = {customer:String}
       ORDER BY id, version DESC LIMIT 1 BY id`,
      { customer },
    );
    return rows
      .map(({ created_at, instances, origins, preset, ...key }) => ({
        ...key,
        ...(instances.length > 0 ? { instances } : {}),
        ...(isCollectorKey(key) ? { origins } : {}),
        ...presetOf(preset),
        createdAt: fromChDateTime(created_at),
      }))
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async activeKeys(customer: string): Promise<ApiKey[]> {
    return (await this.active.get(customer)) ?? [];
  }

  async find(customer: string, id: string): Promise<ApiKey | undefined> {
    return (await this.all(customer)).find((k) => k.id === id);
  }

  /** Appends a version of the key and returns it as stored (permissions and instances de-duplicated and sorted). */
  async save(input: ApiKey): Promise<ApiKey> {
    // An empty list would read back as "every instance": a key limited to no instance is a caller's mistake.
    if (input.instances?.length === 0) {
      throw new Error(`API key ${input.id} limited to no instance`);
    }
    const { instances, ...rest } = input;
    const key: ApiKey = {
      ...rest,
      permissions: [...new Set(input.permissions)].sort(),
      ...(instances ? { instances: [...new Set(instances)].sort() } : {}),
    };
    const [version] = await this.clock.next();
    await this.ch.insert('api_keys', [
      {
        customer: key.customer,
        id: key.id,
        version,
        description: key.description,
        permissions: key.permissions,
        instances: key.instances ?? [],
        origins: key.origins ?? [],
        preset: key.preset ?? '',
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
