import { ClickHouseService, MIGRATIONS, MigratorService, VersionClock } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { CustomersRepository } from './customers.repository';

describe('CustomersRepository on the embedded engine', () => {
  const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('cust') });
  const ch = new ClickHouseService(config);
  const shop = { customer: 'shop1', instances: ['live'], basicLogin: 'shop1', basicPasswordHash: '', basicPending: false };

  beforeAll(async () => {
    await new MigratorService(ch, config).migrate(MIGRATIONS);
    await new CustomersRepository(ch, new VersionClock(ch)).save(shop);
  });
  afterAll(() => ch.onApplicationShutdown());

  it('reads a customer once for many requests that find it at the same time (a flood of one customer never queues lookups)', async () => {
    const repository = new CustomersRepository(ch, new VersionClock(ch));
    const query = jest.spyOn(ch, 'query');
    const found = await Promise.all(Array.from({ length: 50 }, () => repository.find('shop1')));
    const rowLookups = query.mock.calls.filter(([sql]) => sql.includes('basic_password_hash')).length;
    query.mockRestore();
    expect(found).toEqual(Array(50).fill(shop));
    expect(rowLookups).toBe(1);
  });
});
