import { networkInterfaces } from 'node:os';
import { describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { freshDir, startService, type Service } from './support/processes';
import { BASIC } from './support/test-app';

/**
 * What a client outside the host (or container) relies on: the app answers on the machine's own network
 * address, not only on loopback. HOST=127.0.0.1 keeps it local.
 */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!address) {
    throw new Error('this test needs a non-loopback IPv4 address on the machine (os.networkInterfaces())');
  }
  return address;
}

/** The status of GET /health/live on `address`, or the connection error's code (ECONNREFUSED). */
async function live(address: string, port: string): Promise<number | string> {
  try {
    return (await fetch(`http://${address}:${port}/health/live`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code ?? String(err);
  }
}

const APPS = {
  standalone: 'apps/standalone/src/main.js',
  query: 'apps/query/src/main.js',
  ingest: 'apps/ingest/src/main.js',
} as const;

describeKafka('every app listens on HOST (built processes)', () => {
  let broker: KafkaBroker;
  let service: Service | undefined;
  beforeAll(async () => {
    broker = await startKafka({ 'search-events': 1, 'catalogue-documents': 1 });
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(() => broker.stop());

  const start = (app: keyof typeof APPS, env: Record<string, string> = {}) =>
    startService(APPS[app], {
      DATA_DIR: freshDir(`reach-${app}`),
      SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
      LOG_LEVEL: 'warn',
      ...(app === 'ingest' ? { KAFKA_BROKERS: broker.brokers } : {}),
      ...env,
    });
  const portOf = (s: Service) => new URL(s.url).port;

  it.each(Object.keys(APPS) as Array<keyof typeof APPS>)(
    '%s answers on a non-loopback address of the machine by default (HOST=0.0.0.0)',
    async (app) => {
      service = await start(app);
      expect(await live(externalAddress(), portOf(service))).toBe(200);
      expect(await live('127.0.0.1', portOf(service))).toBe(200);
    },
  );

  it.each(Object.keys(APPS) as Array<keyof typeof APPS>)('%s with HOST=127.0.0.1 answers on loopback only', async (app) => {
    service = await start(app, { HOST: '127.0.0.1' });
    expect(await live('127.0.0.1', portOf(service))).toBe(200);
    expect(await live(externalAddress(), portOf(service))).toBe('ECONNREFUSED');
  });

  it('stops with a message naming HOST when it is neither an IP address nor a host name', async () => {
    const attempt = start('standalone', { HOST: 'not a host!' }).then((s) => (service = s));
    await expect(attempt).rejects.toThrow(/HOST="not a host!": HOST must be an IP address or a host name/);
  });
});
