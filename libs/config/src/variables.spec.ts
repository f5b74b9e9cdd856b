import { ConfigurationError, loadConfig } from './app-config';
import { CONFIG_VARIABLES } from './variables';

/** A text each checked variable refuses. */
const BAD: Record<string, string> = {
  HOST: 'not a host!',
  PORT: '65536',
  CLICKHOUSE_URL: 'clickhouse:8123',
  CLICKHOUSE_DATABASE: 'drop table;',
  CLICKHOUSE_CLUSTER: 'two shards',
  CLICKHOUSE_REPLICATED: 'yes',
  MIGRATE_ON_START: '0',
  KAFKA_BROKERS: 'kafka',
  KAFKA_TOPIC_SEARCH_EVENTS: 'search events',
  KAFKA_TOPIC_DOCUMENTS: 'documents/all',
  KAFKA_SESSION_TIMEOUT_MS: '999',
  INGEST_DUPLICATE_CHECK_MS: '600000',
  INGEST_DUPLICATE_CHECK_HOURS: '0',
  SERVICE_CUSTOMER: 'Shop_1',
  BASE_DOMAIN: 'API.example.com',
  SERVICE_INSTANCES: 'live,,stage',
  SERVICE_LEGACY_SECRET: 'fifteen-chars-x',
  SERVICE_JWT_SECRET: 'thirty-one-characters-long-xxxx',
  SERVICE_JWT_PUBLIC_KEY: '-----BEGIN PRIVATE KEY-----',
  SERVICE_BASIC_AUTH: 'ops:seven77',
  RETENTION_DAYS: '1.5',
  WEBHOOK_TIMEOUT_MS: '60001',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes',
  WEBHOOK_ENTITY_TYPES: 'live:synonym',
  RATE_LIMIT_PER_MINUTE: '-1',
  INTAKE_PER_MINUTE: '600k',
  COLLECT_PER_MINUTE: '1.5',
  COLLECT_ROWS_PER_MINUTE: '-1',
  TRUST_PROXY: '10.0.0.0/33',
  AUTH_FAILURES_PER_MINUTE: 'many',
  LOG_LEVEL: 'verbose',
  SEARCH_TERMS_CACHE_MS: '1s',
  ENGAGEMENT_REFRESH_MS: '-1',
  STORAGE_CHECK_MS: '3600001',
  UNVERIFIED_BODY_BYTES: '1048575',
  PASSWORD_HASH_CONCURRENCY: '0',
  ANALYTICS_CONCURRENCY: '0',
  METRICS_TOKEN: 'fifteen-chars-x',
  DOCS_PUBLIC: 'no',
  JWT_MAX_LIFETIME_S: '-1',
};

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('CONFIG_VARIABLES', () => {
  it('declares each variable and each setting once, under an upper-case name', () => {
    const names = CONFIG_VARIABLES.map((v) => v.name);
    const settings = CONFIG_VARIABLES.map((v) => v.setting);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(settings).size).toBe(settings.length);
    expect(names.filter((n) => !/^[A-Z][A-Z0-9_]*[A-Z0-9]$/.test(n))).toEqual([]);
  });

  it('declares as secrets the passwords and keys, and nothing else (AUTH_FAILURES_PER_MINUTE is a number)', () => {
    // Pinned here so that dropping a secret flag takes a deliberate change to this test as well.
    const secrets = CONFIG_VARIABLES.filter((v) => v.secret).map((v) => v.name);
    expect(secrets).toEqual(['CLICKHOUSE_PASSWORD', 'SERVICE_LEGACY_SECRET', 'SERVICE_JWT_SECRET', 'SERVICE_BASIC_AUTH', 'METRICS_TOKEN']);
  });

  it.each(CONFIG_VARIABLES.filter((v) => v.default !== undefined).map((v) => [v.name, v] as const))(
    '%s: the default passes its own check and gives a value',
    (_name, variable) => {
      const text = variable.default!;
      expect(variable.value.problem?.(text)).toBeUndefined();
      expect(variable.value.read(text)).not.toBeUndefined();
      expect(() => loadConfig({ [variable.name]: text })).not.toThrow();
    },
  );

  it('has a refused example for exactly the variables that check their text', () => {
    expect(Object.keys(BAD).sort()).toEqual(
      CONFIG_VARIABLES.filter((v) => v.value.problem)
        .map((v) => v.name)
        .sort(),
    );
  });

  it.each(Object.entries(BAD))('%s=%p stops start-up with a line naming the variable, and only it', (name, text) => {
    const message = errorOf({ [name]: text });
    const secret = CONFIG_VARIABLES.find((v) => v.name === name)!.secret;
    const shown = secret ? '(hidden)' : JSON.stringify(text);
    expect(message.split('\n')).toEqual(['Invalid configuration:', expect.stringMatching(new RegExp(`^  ${name}=`))]);
    expect(message.startsWith(`Invalid configuration:\n  ${name}=${shown}: ${name} must `)).toBe(true);
  });

  it.each(CONFIG_VARIABLES.filter((v) => v.secret).map((v) => [v.name]))('never prints the text of the secret %s', (name) => {
    const refused = BAD[name];
    if (refused !== undefined) {
      expect(errorOf({ [name]: refused })).toContain(`${name}=(hidden)`);
      expect(errorOf({ [name]: refused })).not.toContain(refused);
    }
    // Accepted or not, the text stays out of a message that is about another variable.
    const accepted = `s3cr3t:${name}-long-enough-to-pass-every-length-check`;
    expect(errorOf({ [name]: accepted, PORT: 'x' })).not.toContain(accepted);
  });

  it('prints the text of every variable that is not a secret', () => {
    for (const v of CONFIG_VARIABLES.filter((d) => !d.secret && BAD[d.name] !== undefined)) {
      expect(errorOf({ [v.name]: BAD[v.name] })).toContain(`${v.name}=${JSON.stringify(BAD[v.name])}`);
    }
  });
});
