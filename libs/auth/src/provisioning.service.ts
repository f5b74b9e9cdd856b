import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { ApiKeysRepository } from './api-keys.repository';
import { CustomersRepository, type Customer } from './customers.repository';
import { InitialCredentialsFile, type GeneratedCredentials } from './initial-credentials';
import { hashPassword, randomSecret, verifyPassword } from './password';
import { IMPORTER_PRESET } from './permissions';

export const LEGACY_DESCRIPTION = 'legacy secret';

/** New Basic credentials of a customer (credentials:reset). */
export interface BasicCredentials {
  customer: string;
  basicLogin: string;
  basicPassword: string;
}

/**
 * Creates customers and their first credentials. Configured values win; an environment value seeds a
 * credential only when none exists yet, so a revoked legacy key stays revoked across restarts.
 */
@Injectable()
export class ProvisioningService {
  private readonly logger = new Logger(ProvisioningService.name);
  private readonly initial: InitialCredentialsFile;
  /** Customers (by password hash) whose first Basic sign-in this process has recorded: one write each. */
  private readonly recordedFirstUse = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly customers: CustomersRepository,
    private readonly keys: ApiKeysRepository,
  ) {
    this.initial = new InitialCredentialsFile(config.dataDir);
  }

  /**
   * Single-customer mode: makes the configured customer match the environment. On the very first start with no
   * credential configured, generates Basic credentials and the legacy secret. Returns the generated credentials
   * for as long as no one has signed in with them (to be printed at every start until then), else undefined.
   */
  async ensureConfiguredCustomer(): Promise<GeneratedCredentials | undefined> {
    const name = this.config.customer;
    const existing = await this.customers.find(name);
    if (!existing && !this.config.hasConfiguredCredentials) {
      return this.createCustomer(name, this.config.instances, { keep: true });
    }

    const desired: Customer = {
      customer: name,
      instances: this.config.instances,
      basicLogin: existing?.basicLogin ?? '',
      basicPasswordHash: existing?.basicPasswordHash ?? '',
      basicPending: existing?.basicPending ?? false,
    };
    const basic = this.config.basicAuth;
    if (basic && !(existing && existing.basicLogin === basic.login && (await verifyPassword(basic.password, existing.basicPasswordHash)))) {
      desired.basicLogin = basic.login;
      desired.basicPasswordHash = await hashPassword(basic.password);
      desired.basicPending = false;
    }
    if (!existing || !sameCustomer(existing, desired)) {
      await this.customers.save(desired);
    }
    if (this.config.legacySecret) {
      await this.seedLegacyKey(name, this.config.legacySecret);
    }
    return this.keptCredentials(desired);
  }

  /**
   * Provisions a customer with generated Basic credentials and legacy secret (CLI and first start). `keep`: the
   * plain credentials are kept in DATA_DIR until the Basic ones are first used; written before anything is stored,
   * so a start that fails after storing them can still print them.
   */
  async createCustomer(name: string, instances: string[], options: { keep?: boolean } = {}): Promise<GeneratedCredentials> {
    if (await this.customers.find(name)) {
      throw new Error(`customer ${name} exists already`);
    }
    const generated = { customer: name, instances, basicLogin: 'admin', basicPassword: randomSecret(18), legacySecret: randomSecret(32) };
    if (options.keep) {
      await this.initial.write(generated);
    }
    // The customer last: a start that stops before it generates everything anew the next time.
    await this.seedLegacyKey(name, generated.legacySecret);
    await this.customers.save({
      customer: name,
      instances,
      basicLogin: generated.basicLogin,
      basicPasswordHash: await hashPassword(generated.basicPassword),
      basicPending: options.keep === true,
    });
    return generated;
  }

  /**
   * New Basic credentials for a customer (`npm run cli -- credentials:reset`): the old password stops working. Refused
   * where SERVICE_BASIC_AUTH is set for it: the configured value would replace them at the next start.
   */
  async resetBasic(name: string): Promise<BasicCredentials> {
    const existing = await this.customers.find(name);
    if (!existing) {
      throw new Error(`no customer ${name} in this storage`);
    }
    if (!this.config.multiCustomer && name === this.config.customer && this.config.basicAuth) {
      throw new Error('SERVICE_BASIC_AUTH is set: the configured credentials win at every start; change that variable instead');
    }
    const basicPassword = randomSecret(18);
    const basicLogin = existing.basicLogin || 'admin';
    await this.customers.save({ ...existing, basicLogin, basicPasswordHash: await hashPassword(basicPassword), basicPending: false });
    if (await this.initial.read(name)) {
      await this.initial.remove();
    }
    return { customer: name, basicLogin, basicPassword };
  }

  /**
   * A successful Basic sign-in: the first one with generated credentials is recorded (one write), so later starts no
   * longer print them, and their kept plain copy is deleted. Free for every other sign-in.
   */
  async basicSignedIn(customer: Customer): Promise<void> {
    const key = `${customer.customer}\u0000${customer.basicPasswordHash}`;
    if (!customer.basicPending || this.recordedFirstUse.has(key)) {
      return;
    }
    this.recordedFirstUse.add(key);
    try {
      // Written from the stored row, not the request's cached one (up to 2 s old): a reset or a configured password
      // stored meanwhile by another process must not be undone. Nothing is written when the row changed.
      const stored = await this.customers.findStored(customer.customer);
      const unchanged =
        stored?.basicPending === true &&
        stored.basicLogin === customer.basicLogin &&
        stored.basicPasswordHash === customer.basicPasswordHash;
      if (!unchanged) {
        return;
      }
      await this.customers.save({ ...stored, basicPending: false });
      if (await this.initial.read(customer.customer)) {
        await this.initial.remove();
      }
    } catch (err) {
      this.recordedFirstUse.delete(key); // the next sign-in tries again
      this.logger.warn(`recording the first use of the generated Basic credentials failed: ${(err as Error).message}`);
    }
  }

  /** The kept plain credentials while they are still pending and still the stored ones; otherwise the file goes. */
  private async keptCredentials(customer: Customer): Promise<GeneratedCredentials | undefined> {
    const kept = await this.initial.read(customer.customer);
    if (!kept) {
      return undefined;
    }
    const current =
      customer.basicPending === true &&
      kept.basicLogin === customer.basicLogin &&
      (await verifyPassword(kept.basicPassword, customer.basicPasswordHash));
    if (current) {
      return kept;
    }
    await this.initial.remove();
    return undefined;
  }

  private async seedLegacyKey(customer: string, secret: string): Promise<void> {
    const legacy = (await this.keys.all(customer)).find((k) => k.legacy);
    if (legacy?.revoked) {
      this.logger.warn('SERVICE_LEGACY_SECRET is set but the legacy key was revoked; it stays revoked');
      return;
    }
    if (legacy && legacy.secret === secret) {
      return;
    }
    await this.keys.save({
      id: legacy?.id ?? randomUUID(),
      customer,
      description: LEGACY_DESCRIPTION,
      permissions: [...IMPORTER_PRESET],
      secret,
      legacy: true,
      revoked: false,
      createdAt: legacy?.createdAt ?? Date.now(),
    });
  }
}

function sameCustomer(a: Customer, b: Customer): boolean {
  return (
    a.basicLogin === b.basicLogin &&
    a.basicPasswordHash === b.basicPasswordHash &&
    (a.basicPending ?? false) === (b.basicPending ?? false) &&
    a.instances.join(',') === b.instances.join(',')
  );
}
