import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { ApiKeysRepository } from './api-keys.repository';
import { CustomersRepository, type Customer } from './customers.repository';
import { hashPassword, randomSecret, verifyPassword } from './password';
import { IMPORTER_PRESET } from './permissions';

export const LEGACY_DESCRIPTION = 'legacy secret';

export interface GeneratedCredentials {
  customer: string;
  instances: string[];
  basicLogin: string;
  basicPassword: string;
  legacySecret: string;
}

/**
 * Creates customers and their first credentials. Configured values win; an environment value seeds a
 * credential only when none exists yet, so a revoked legacy key stays revoked across restarts.
 */
@Injectable()
export class ProvisioningService {
  private readonly logger = new Logger(ProvisioningService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly customers: CustomersRepository,
    private readonly keys: ApiKeysRepository,
  ) {}

  /**
   * Single-customer mode: makes the configured customer match the environment. On the very first start
   * with no credential configured, generates Basic credentials and the legacy secret and returns them.
   */
  async ensureConfiguredCustomer(): Promise<GeneratedCredentials | undefined> {
    const name = this.config.customer;
    const existing = await this.customers.find(name);
    if (!existing && !this.config.hasConfiguredCredentials) return this.createCustomer(name, this.config.instances);

    const desired: Customer = {
      customer: name,
      instances: this.config.instances,
      basicLogin: existing?.basicLogin ?? '',
      basicPasswordHash: existing?.basicPasswordHash ?? '',
    };
    const basic = this.config.basicAuth;
    if (basic && !(existing && existing.basicLogin === basic.login && (await verifyPassword(basic.password, existing.basicPasswordHash)))) {
      desired.basicLogin = basic.login;
      desired.basicPasswordHash = await hashPassword(basic.password);
    }
    if (!existing || !sameCustomer(existing, desired)) await this.customers.save(desired);
    if (this.config.legacySecret) await this.seedLegacyKey(name, this.config.legacySecret);
    return undefined;
  }

  /** Provisions a customer with generated Basic credentials and legacy secret (CLI and first start). */
  async createCustomer(name: string, instances: string[]): Promise<GeneratedCredentials> {
    if (await this.customers.find(name)) throw new Error(`customer ${name} exists already`);
    const basicPassword = randomSecret(18);
    const legacySecret = randomSecret(32);
    await this.customers.save({ customer: name, instances, basicLogin: 'admin', basicPasswordHash: await hashPassword(basicPassword) });
    await this.seedLegacyKey(name, legacySecret);
    return { customer: name, instances, basicLogin: 'admin', basicPassword, legacySecret };
  }

  private async seedLegacyKey(customer: string, secret: string): Promise<void> {
    const legacy = (await this.keys.all(customer)).find((k) => k.legacy);
    if (legacy?.revoked) {
      this.logger.warn('SERVICE_LEGACY_SECRET is set but the legacy key was revoked; it stays revoked');
      return;
    }
    if (legacy && legacy.secret === secret) return;
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
  return a.basicLogin === b.basicLogin && a.basicPasswordHash === b.basicPasswordHash && a.instances.join(',') === b.instances.join(',');
}
