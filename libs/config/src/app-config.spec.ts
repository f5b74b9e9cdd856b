import { AppConfig, ConfigurationError, configVariableNames, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.host).toBe('0.0.0.0');
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.clickhouse).toEqual({
      url: undefined,
      user: 'default',
      password: '',
      database: 'search_analytics',
      cluster: undefined,
      replicated: true,
    });
    expect(c.migrateOnStart).toBe(true);
    expect(c.kafka).toEqual({
      brokers: undefined,
      topicSearchEvents: 'search-events',
      topicDocuments: 'catalogue-documents',
      groupId: 'search-analytics-ingest',
      sessionTimeoutMs: 10000,
      duplicateCheckMs: 60000,
      duplicateCheckHours: 24,
    });
    expect(c.customer).toBe('demo');
    expect(c.instances).toEqual(['live']);
    expect(c.retentionDays).toBe(400);
    expect(c.webhookTimeoutMs).toBe(3000);
    expect(c.webhookAllowPrivateNetworks).toBe(false);
    expect(c.hasConfiguredCredentials).toBe(false);
  });

  it('parses lists, booleans and the Basic credentials', () => {
    const c = loadConfig({
      KAFKA_BROKERS: 'k1:9092,k2:9092',
      SERVICE_INSTANCES: 'live,stage',
      SERVICE_BASIC_AUTH: 'ops:pass:with:colons',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_ENTITY_TYPES: 'live=synonym,landingpage;stage=menu',
    });
    expect(c.kafka.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(c.instances).toEqual(['live', 'stage']);
    expect(c.basicAuth).toEqual({ login: 'ops', password: 'pass:with:colons' });
    expect(c.webhookAllowPrivateNetworks).toBe(true);
    expect(c.webhookEntityTypes).toEqual({ live: ['synonym', 'landingpage'], stage: ['menu'] });
    expect(c.hasConfiguredCredentials).toBe(true);
  });

  it.each(['127.0.0.1', '::', '::1', 'localhost', 'api.internal.example'])('accepts HOST=%s', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it.each([
    ['HOST', 'not a host!'],
    ['HOST', '0.0.0.0:3000'],
    ['HOST', 'http://example.com'],
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['CLICKHOUSE_URL', 'not a url'],
    ['CLICKHOUSE_DATABASE', 'drop table;'],
    ['KAFKA_BROKERS', 'localhost'],
    ['SERVICE_INSTANCES', 'Live,,x'],
    ['SERVICE_CUSTOMER', 'Shop_1'],
    ['RETENTION_DAYS', '0'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'yes'],
    ['SERVICE_JWT_SECRET', 'short'],
  ])('stops with a message naming %s when it is %p', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigurationError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}=`));
  });

  it('never prints a secret value in the error', () => {
    expect(() => loadConfig({ SERVICE_LEGACY_SECRET: 'tooshort' })).toThrow(/SERVICE_LEGACY_SECRET=\(hidden\)/);
    expect(() => loadConfig({ SERVICE_LEGACY_SECRET: 'tooshort' })).not.toThrow(/tooshort/);
  });

  it('shows the value of a variable whose name merely sounds secret', () => {
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: 'many' })).toThrow(
      /^Invalid configuration:\n {2}AUTH_FAILURES_PER_MINUTE="many": /,
    );
  });

  it('names every wrong variable, one line each, in the order of the declarations', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud', PORT: 'x', SERVICE_BASIC_AUTH: 'x' })).toThrow(
      new ConfigurationError(
        'Invalid configuration:\n' +
          '  PORT="x": PORT must be an integer from 0 to 65535\n' +
          '  SERVICE_BASIC_AUTH=(hidden): SERVICE_BASIC_AUTH must be login:password with a password of at least 8 characters\n' +
          '  LOG_LEVEL="loud": LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent',
      ),
    );
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', SERVICE_INSTANCES: '', CLICKHOUSE_URL: '' })).toEqual(loadConfig({}));
  });

  it('refuses a cluster without a server', () => {
    expect(() => loadConfig({ CLICKHOUSE_CLUSTER: 'shop' })).toThrow(/CLICKHOUSE_CLUSTER is set without CLICKHOUSE_URL/);
    expect(loadConfig({ CLICKHOUSE_CLUSTER: 'shop', CLICKHOUSE_URL: 'http://ch:8123' }).clickhouse).toMatchObject({
      cluster: 'shop',
      replicated: true,
    });
  });

  it('reads a one-line PEM public key and refuses it together with a JWT secret', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\\nMFkw\\n-----END PUBLIC KEY-----';
    expect(loadConfig({ SERVICE_JWT_PUBLIC_KEY: pem }).jwtPublicKey).toBe('-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----');
    expect(() => loadConfig({ SERVICE_JWT_PUBLIC_KEY: pem, SERVICE_JWT_SECRET: 'x'.repeat(32) })).toThrow(
      /^Invalid configuration:\n {2}SERVICE_JWT_SECRET and SERVICE_JWT_PUBLIC_KEY are both set/,
    );
  });

  it('keeps a list of only commas unset', () => {
    expect(loadConfig({ CORS_ORIGINS: ' , ' }).corsOrigins).toBeUndefined();
  });

  it('reads TRUST_PROXY as false, true, a hop count or a list of addresses and ranges; COLLECT_PER_MINUTE 600 by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({}).collectPerMinute).toBe(600);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    for (const bad of ['yes', '10.0.0.0/8/1', 'proxy.example', '::1/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY must be false, true, a hop count/);
    }
  });

  it('lists the variable names sorted', () => {
    const names = configVariableNames();
    expect(names).toEqual([...names].sort());
    expect(names).toContain('SERVICE_JWT_PUBLIC_KEY');
  });
});

describe('AppConfig', () => {
  it('can be built by hand, as tests do, with its getters working', () => {
    const config = Object.assign(new AppConfig(), { baseDomain: 'api.example.com', legacySecret: '0123456789abcdef' });
    expect(config.multiCustomer).toBe(true);
    expect(config.hasConfiguredCredentials).toBe(true);
    expect(new AppConfig().multiCustomer).toBe(false);
  });
});
