import { loadConfig } from '@app/config';
import type { ApiKeysRepository } from './api-keys.repository';
import type { Customer, CustomersRepository } from './customers.repository';
import { ProvisioningService } from './provisioning.service';

/** Customers as storage holds them, and what a process has cached of them (as CustomersRepository does, up to 2 s). */
class StoredCustomers {
  readonly stored = new Map<string, Customer>();
  readonly cached = new Map<string, Customer>();
  saves = 0;

  find(name: string): Promise<Customer | undefined> {
    if (!this.cached.has(name) && this.stored.has(name)) {
      this.cached.set(name, { ...this.stored.get(name)! });
    }
    return Promise.resolve(this.cached.get(name));
  }
  findStored(name: string): Promise<Customer | undefined> {
    this.cached.delete(name);
    return this.find(name);
  }
  save(c: Customer): Promise<void> {
    this.saves++;
    this.stored.set(c.customer, { ...c });
    this.cached.set(c.customer, { ...c });
    return Promise.resolve();
  }
}

const GENERATED: Customer = {
  customer: 'shop',
  instances: ['live'],
  basicLogin: 'admin',
  basicPasswordHash: 'hash-generated',
  basicPending: true,
};

function service(customers: StoredCustomers): ProvisioningService {
  const config = loadConfig({ DATA_DIR: `tmp/provisioning-spec-${process.pid}` });
  return new ProvisioningService(config, customers as unknown as CustomersRepository, {} as ApiKeysRepository);
}

describe('ProvisioningService.basicSignedIn: the first use of generated Basic credentials', () => {
  it('records the first sign-in once: the flag is cleared in storage, later sign-ins write nothing', async () => {
    const customers = new StoredCustomers();
    customers.stored.set('shop', { ...GENERATED });
    const provisioning = service(customers);
    const signedIn = (await customers.find('shop'))!;
    await provisioning.basicSignedIn(signedIn);
    await provisioning.basicSignedIn(signedIn);
    expect(customers.stored.get('shop')).toEqual({ ...GENERATED, basicPending: false });
    expect(customers.saves).toBe(1);
  });

  it('does not undo a password reset stored meanwhile by another process (its cached customer is older)', async () => {
    const customers = new StoredCustomers();
    customers.stored.set('shop', { ...GENERATED });
    const provisioning = service(customers);
    // This process authenticated the request with its cached row: the generated password, still pending ...
    const signedIn = (await customers.find('shop'))!;
    // ... while credentials:reset (another process) stored a new password.
    const reset = { ...GENERATED, basicPasswordHash: 'hash-after-reset', basicPending: false };
    customers.stored.set('shop', reset);
    await provisioning.basicSignedIn(signedIn);
    expect(customers.stored.get('shop')).toEqual(reset);
    expect(customers.saves).toBe(0);
  });
});
