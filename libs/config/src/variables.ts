import { isIP } from 'node:net';
import { isIn, isInt, isURL, matches, max, min, minLength } from 'class-validator';
import { NAME_PATTERN } from '@app/contracts';
import type { AppConfig } from './app-config';

const LABEL = NAME_PATTERN.source.slice(1, -1);
const NAME_LIST = new RegExp(`^${LABEL}(,${LABEL})*$`);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const KAFKA_TOPIC = /^[A-Za-z0-9._-]{1,249}$/;

/**
 * How a variable's text is checked and turned into its setting. Problems are written without the text: they are
 * printed for secrets too, whose text never is.
 */
export interface ValueKind<T> {
  /** What is wrong with `text`, as the end of a sentence that starts with the variable's name; undefined: fine. */
  readonly problem?: (text: string) => string | undefined;
  /** The setting of a text that has no problem; undefined counts as unset (a list of only commas). */
  readonly read: (text: string) => T | undefined;
}

/** Any text: names and paths the service passes on without interpreting them. */
const text: ValueKind<string> = { read: (t) => t };

function matching(pattern: RegExp, problem: string): ValueKind<string>;
function matching<T>(pattern: RegExp, problem: string, read: (text: string) => T | undefined): ValueKind<T>;
function matching(pattern: RegExp, problem: string, read: (text: string) => unknown = (t) => t): ValueKind<unknown> {
  return { problem: (t) => (matches(t, pattern) ? undefined : problem), read };
}

/** Number() reads the text, so ' 42 ', 1e3 and 0x10 pass: what the service accepted before the declarations. */
function integer(least: number, most: number): ValueKind<number> {
  return {
    problem: (t) => {
      const n = Number(t);
      return isInt(n) && min(n, least) && max(n, most) ? undefined : `must be an integer from ${least} to ${most}`;
    },
    read: Number,
  };
}

function oneOf(values: string[]): ValueKind<string> {
  return { problem: (t) => (isIn(t, values) ? undefined : `must be one of ${values.join(', ')}`), read: (t) => t };
}

function atLeast(characters: number, problem: string): ValueKind<string> {
  return { problem: (t) => (minLength(t, characters) ? undefined : problem), read: (t) => t };
}

const flag: ValueKind<boolean> = {
  problem: (t) => (isIn(t, ['true', 'false']) ? undefined : 'must be true or false'),
  read: (t) => t === 'true',
};

const HTTP_URL = { require_tld: false, protocols: ['http', 'https'], require_protocol: true };
const httpUrl: ValueKind<string> = { problem: (t) => (isURL(t, HTTP_URL) ? undefined : 'must be an http(s) URL'), read: (t) => t };

/** An IP address literal (IPv4 or IPv6) or a host name: what a server can listen on. */
const listenAddress: ValueKind<string> = {
  problem: (t) =>
    isIP(t) !== 0 || HOST_NAME.test(t)
      ? undefined
      : 'must be an IP address or a host name (0.0.0.0 for all interfaces, 127.0.0.1 for local only)',
  read: (t) => t,
};

/** An address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(item: string): boolean {
  const [address, bits, rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest !== undefined) {
    return false;
  }
  const n = Number(bits);
  return bits === undefined || (/^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128));
}

/** TRUST_PROXY: false, true, a hop count, or the proxies' addresses and CIDR ranges (Fastify's trustProxy). */
const trustProxy: ValueKind<boolean | number | string[]> = {
  problem: (t) =>
    ['true', 'false'].includes(t) || /^\d{1,2}$/.test(t) || (list(t) ?? ['']).every(isAddressOrRange)
      ? undefined
      : 'must be false, true, a hop count (0 to 99) or comma-separated addresses and CIDR ranges',
  read: (t) => (t === 'true' || t === 'false' ? t === 'true' : /^\d+$/.test(t) ? Number(t) : list(t)),
};

/** Comma-separated items, blanks dropped; none at all counts as unset. */
function list(value: string): string[] | undefined {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length > 0 ? items : undefined;
}

function entityTypes(value: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of value.split(';')) {
    const [instance, types] = part.split('=');
    out[instance] = types.split(',').filter((t) => t.length > 0);
  }
  return out;
}

/** AppConfig's settings: its fields, without the getters derived from them. */
type Settings = Omit<AppConfig, 'hasConfiguredCredentials' | 'multiCustomer'>;
/** Settings grouped by the service they reach. */
type Group = 'clickhouse' | 'kafka';
/** Where a variable's value lands in AppConfig: a field, or a field of a group ('kafka.brokers'). */
export type SettingPath = Exclude<keyof Settings, Group> | { [G in Group]: `${G}.${keyof Settings[G] & string}` }[Group];
type SettingOf<P extends SettingPath> = P extends `${infer G extends Group}.${infer K}`
  ? Settings[G][K & keyof Settings[G]]
  : Settings[P & keyof Settings];

/**
 * One environment variable, declared once: validation, default, the row of docs/configuration.md and whether its value may be
 * printed all come from here. The default is the text used when the variable is unset or empty, written as an
 * operator would write it; without one the setting stays unset, so a setting that is never undefined needs one.
 */
export type ConfigVariable<P extends SettingPath = SettingPath> = {
  /** A contract: deployments and tools outside this repository set it, so a name never changes. */
  readonly name: string;
  readonly setting: P;
  readonly value: ValueKind<NonNullable<SettingOf<P>>>;
  /**
   * Declared by flag, not guessed from the name: a secret's text never appears in a message (errors show
   * `(hidden)`), and docs/configuration.md marks it.
   */
  readonly secret: boolean;
  /** The "meaning" cell of docs/configuration.md (Markdown). */
  readonly description: string;
} & (undefined extends SettingOf<P> ? { readonly default?: string } : { readonly default: string });

/** Ties each declaration's value kind and default to the type of the setting it names. */
function variable<P extends SettingPath>(declaration: ConfigVariable<P>): ConfigVariable<P> {
  return declaration;
}

const DECLARED = [
  variable({
    name: 'HOST',
    setting: 'host',
    default: '0.0.0.0',
    value: listenAddress,
    secret: false,
    description:
      'address every app (embedded, query, ingest) listens on: an IP address or host name; `0.0.0.0` answers on all interfaces ' +
      '(containers need it), `127.0.0.1` keeps the app local',
  }),
  variable({
    name: 'PORT',
    setting: 'port',
    default: '3000',
    value: integer(0, 65535),
    secret: false,
    description: 'HTTP port of the query / embedded app',
  }),
  variable({
    name: 'DATA_DIR',
    setting: 'dataDir',
    default: './data',
    value: text,
    secret: false,
    description: 'embedded ClickHouse data directory (also keeps generated credentials)',
  }),
  variable({
    name: 'CLICKHOUSE_URL',
    setting: 'clickhouse.url',
    value: httpUrl,
    secret: false,
    description: 'ClickHouse server URL; unset = embedded engine',
  }),
  variable({
    name: 'CLICKHOUSE_USER',
    setting: 'clickhouse.user',
    default: 'default',
    value: text,
    secret: false,
    description: 'ClickHouse server user',
  }),
  variable({
    name: 'CLICKHOUSE_PASSWORD',
    setting: 'clickhouse.password',
    default: '',
    value: text,
    secret: true,
    description: 'password of `CLICKHOUSE_USER`',
  }),
  variable({
    name: 'CLICKHOUSE_DATABASE',
    setting: 'clickhouse.database',
    default: 'search_analytics',
    value: matching(IDENTIFIER, 'must be an identifier (letters, digits, _)'),
    secret: false,
    description: "database of the service's tables (server or embedded engine)",
  }),
  variable({
    name: 'CLICKHOUSE_CLUSTER',
    setting: 'clickhouse.cluster',
    value: matching(IDENTIFIER, 'must be a cluster name of the server (letters, digits, _)'),
    secret: false,
    description:
      "cluster mode: a cluster of the server's `remote_servers`; tenant tables sharded behind Distributed tables, DDL on " +
      'every host (docs/operations.md). Needs `CLICKHOUSE_URL`',
  }),
  variable({
    name: 'CLICKHOUSE_REPLICATED',
    setting: 'clickhouse.replicated',
    default: 'true',
    value: flag,
    secret: false,
    description: 'in cluster mode: Replicated engines (Keeper); false: plain engines, one replica per shard',
  }),
  variable({
    name: 'MIGRATE_ON_START',
    setting: 'migrateOnStart',
    default: 'true',
    value: flag,
    secret: false,
    description:
      'false: the apps never migrate, `npm run cli -- migrate` does (a one-shot job); until it has, an app writes ' +
      'nothing and /health/ready answers 503 naming the first pending migration',
  }),
  variable({
    name: 'KAFKA_BROKERS',
    setting: 'kafka.brokers',
    value: matching(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'must be a comma-separated list of host:port', list),
    secret: false,
    description: 'comma-separated `host:port`; unset = in-process transport',
  }),
  variable({
    name: 'KAFKA_TOPIC_SEARCH_EVENTS',
    setting: 'kafka.topicSearchEvents',
    default: 'search-events',
    value: matching(KAFKA_TOPIC, 'must be a valid Kafka topic name'),
    secret: false,
    description: 'topic of search events',
  }),
  variable({
    name: 'KAFKA_TOPIC_DOCUMENTS',
    setting: 'kafka.topicDocuments',
    default: 'catalogue-documents',
    value: matching(KAFKA_TOPIC, 'must be a valid Kafka topic name'),
    secret: false,
    description: 'topic of catalogue documents',
  }),
  variable({
    name: 'KAFKA_GROUP_ID',
    setting: 'kafka.groupId',
    default: 'search-analytics-ingest',
    value: text,
    secret: false,
    description: 'consumer group of the ingest apps',
  }),
  variable({
    name: 'KAFKA_SESSION_TIMEOUT_MS',
    setting: 'kafka.sessionTimeoutMs',
    default: '10000',
    value: integer(1000, 300000),
    secret: false,
    description: 'rebalance delay after a consumer dies',
  }),
  variable({
    name: 'INGEST_DUPLICATE_CHECK_MS',
    setting: 'kafka.duplicateCheckMs',
    default: '60000',
    value: integer(1000, 60000),
    secret: false,
    description: 'how often an ingest process looks for Kafka offsets stored twice (and compensates them)',
  }),
  variable({
    name: 'INGEST_DUPLICATE_CHECK_HOURS',
    setting: 'kafka.duplicateCheckHours',
    default: '24',
    value: integer(1, 168),
    secret: false,
    description: 'how far back, in hours of inserts, the duplicate check looks',
  }),
  variable({
    name: 'SERVICE_CUSTOMER',
    setting: 'customer',
    default: 'demo',
    value: matching(NAME_PATTERN, 'must be a lower-case DNS label'),
    secret: false,
    description: 'the customer when `BASE_DOMAIN` is unset',
  }),
  variable({
    name: 'BASE_DOMAIN',
    setting: 'baseDomain',
    value: matching(/^[a-z0-9.-]+$/, 'must be a lower-case domain name'),
    secret: false,
    description: 'multi-customer: the customer is the Host label left of it (`shop1.api.example.com`)',
  }),
  variable({
    name: 'SERVICE_INSTANCES',
    setting: 'instances',
    default: 'live',
    value: matching(NAME_LIST, 'must be a comma-separated list of lower-case DNS labels', list),
    secret: false,
    description: 'comma-separated instance names; the first is the default',
  }),
  variable({
    name: 'SERVICE_LEGACY_SECRET',
    setting: 'legacySecret',
    value: atLeast(16, 'must be at least 16 characters'),
    secret: true,
    description: 'seeds the first key ("legacy secret", Importer preset); 16+ characters',
  }),
  variable({
    name: 'SERVICE_JWT_SECRET',
    setting: 'jwtSecret',
    value: atLeast(32, 'must be at least 32 characters (HS256 needs 256 bits)'),
    secret: true,
    description: 'HS256 secret (32+ characters); not together with `SERVICE_JWT_PUBLIC_KEY`',
  }),
  variable({
    name: 'SERVICE_JWT_PUBLIC_KEY',
    setting: 'jwtPublicKey',
    // Environment files often hold a PEM on one line, its line breaks written as \n.
    value: matching(/-----BEGIN [A-Z ]*PUBLIC KEY-----/, 'must be a PEM public key', (t) => t.replace(/\\n/g, '\n')),
    secret: false,
    description: 'PEM public key for RS256/ES256 (line breaks may be written `\\n`); not together with `SERVICE_JWT_SECRET`',
  }),
  variable({
    name: 'SERVICE_BASIC_AUTH',
    setting: 'basicAuth',
    // The login ends at the first colon; the password may hold more.
    value: matching(/^[^:\s]+:.{8,}$/, 'must be login:password with a password of at least 8 characters', (t) => ({
      login: t.slice(0, t.indexOf(':')),
      password: t.slice(t.indexOf(':') + 1),
    })),
    secret: true,
    description: '`login:password` of the instance credentials (a password of 8+ characters)',
  }),
  variable({
    name: 'RETENTION_DAYS',
    setting: 'retentionDays',
    default: '400',
    value: integer(1, 3650),
    secret: false,
    description: 'how long search events are kept; the largest `since`',
  }),
  variable({
    name: 'CORS_ORIGINS',
    setting: 'corsOrigins',
    value: { read: list },
    secret: false,
    description: 'comma-separated origins allowed by CORS',
  }),
  variable({
    name: 'WEBHOOK_TIMEOUT_MS',
    setting: 'webhookTimeoutMs',
    default: '3000',
    value: integer(100, 60000),
    secret: false,
    description: 'how long a webhook target has to answer',
  }),
  variable({
    name: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
    setting: 'webhookAllowPrivateNetworks',
    default: 'false',
    value: flag,
    secret: false,
    description: 'allow webhook targets on loopback/private addresses',
  }),
  variable({
    name: 'WEBHOOK_ENTITY_TYPES',
    setting: 'webhookEntityTypes',
    value: matching(/^[a-z0-9-]+=[a-z,]+(;[a-z0-9-]+=[a-z,]+)*$/, 'must look like live=synonym,landingpage;stage=menu', entityTypes),
    secret: false,
    description: "operator's narrowing per instance, e.g. `live=synonym,landingpage;stage=menu`; unset = all entity types",
  }),
  variable({
    name: 'RATE_LIMIT_PER_MINUTE',
    setting: 'rateLimitPerMinute',
    default: '6000',
    value: integer(0, 10_000_000),
    secret: false,
    description:
      'authenticated requests per customer, route and minute, per process, to every route but `POST /events` (429 with ' +
      '`Retry-After` beyond it); failed authentications never count here; 0 turns it off',
  }),
  variable({
    name: 'INTAKE_PER_MINUTE',
    setting: 'intakePerMinute',
    default: '600000',
    value: integer(0, 10_000_000),
    secret: false,
    description:
      "requests to `POST /events` per customer per minute and process (429 with `Retry-After` beyond it), so a shop's event " +
      'stream neither spends nor is capped by `RATE_LIMIT_PER_MINUTE`; 0 turns it off',
  }),
  variable({
    name: 'COLLECT_PER_MINUTE',
    setting: 'collectPerMinute',
    default: '600',
    value: integer(0, 10_000_000),
    secret: false,
    description:
      'requests to `POST /1/events` (browsers, collector keys) per client address (IPv6: per /64) per minute and process ' +
      '(429 with `Retry-After` beyond it); the address is the one `TRUST_PROXY` gives; 0 turns it off',
  }),
  variable({
    name: 'COLLECT_ROWS_PER_MINUTE',
    setting: 'collectRowsPerMinute',
    default: '20000',
    value: integer(0, 1_000_000_000),
    secret: false,
    description:
      'clicks, conversions and views `POST /1/events` may store per client address (IPv6: per /64) per minute and process, ' +
      'counting one per object of an event (one request carries up to 1,000 events of 20 objects): a request beyond it ' +
      'stores nothing and gets 429 with `Retry-After`; 0 turns it off',
  }),
  variable({
    name: 'TRUST_PROXY',
    setting: 'trustProxy',
    default: 'false',
    value: trustProxy,
    secret: false,
    description:
      'which proxies in front of the service are trusted to name the client in `X-Forwarded-For` (the client address that ' +
      '`COLLECT_PER_MINUTE` and `AUTH_FAILURES_PER_MINUTE` count): `false` (none: the TCP peer is the client), `true` (every ' +
      'one: the left-most address), a hop count (e.g. `1` for one CDN or load balancer), or comma-separated addresses and ' +
      'CIDR ranges of the proxies (e.g. `10.0.0.0/8,192.168.1.7`)',
  }),
  variable({
    name: 'AUTH_FAILURES_PER_MINUTE',
    setting: 'authFailuresPerMinute',
    default: '60',
    value: integer(0, 10_000_000),
    secret: false,
    description:
      'failed authentications (401) per client address (IPv6: per /64) per minute and process; beyond it that address alone ' +
      'gets 429 with `Retry-After` until the minute is over, whatever it sends; 0 turns it off',
  }),
  variable({
    name: 'LOG_LEVEL',
    setting: 'logLevel',
    default: 'info',
    value: oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
    secret: false,
    description: 'pino level (`trace` ... `silent`); logs are JSON lines on stdout with the request id',
  }),
  variable({
    name: 'SEARCH_TERMS_CACHE_MS',
    setting: 'searchTermsCacheMs',
    default: '1000',
    value: integer(0, 60000),
    secret: false,
    description:
      'reuse of a `GET /search-terms` answer (dropped at once when this process writes events or entities of the instance); ' +
      '0 turns it off',
  }),
  variable({
    name: 'ENGAGEMENT_REFRESH_MS',
    setting: 'engagementRefreshMs',
    default: '60000',
    value: integer(0, 3_600_000),
    secret: false,
    description:
      'how often the engagement figures (clicks, conversions) and the filters, users, countries and tags of each hour are ' +
      'computed ahead of the requests; an answer shows a click or conversion at the latest this long after it is stored ' +
      '(plus the computation), and reads the dimensions of hours not computed yet from the raw rows. 0: computed from ' +
      'the raw tables at every request, exact at once but slow on large data sets',
  }),
  variable({
    name: 'STORAGE_CHECK_MS',
    setting: 'storageCheckMs',
    default: '60000',
    value: integer(0, 3_600_000),
    secret: false,
    description:
      'how often half-done inserts (a process killed between a table and its views) are looked for and repaired, on the ' +
      'embedded engine (no `CLICKHOUSE_URL`); also at every start, before the app serves. The ' +
      'rollups are exact again within twice this. 0: never',
  }),
  variable({
    name: 'UNVERIFIED_BODY_BYTES',
    setting: 'unverifiedBodyBytes',
    default: '67108864',
    value: integer(1_048_576, 17_179_869_184),
    secret: false,
    description:
      'bytes buffered at once, per process, for request bodies whose signature is not yet verified (HMAC); beyond it, and ' +
      'beyond 4 such bodies per client address, 503 with `Retry-After`',
  }),
  variable({
    name: 'PASSWORD_HASH_CONCURRENCY',
    setting: 'passwordHashConcurrency',
    default: '4',
    value: integer(1, 64),
    secret: false,
    description:
      'password checks (scrypt, in worker threads of their own) running at once per process; a short queue, then 429 with `Retry-After`',
  }),
  variable({
    name: 'ANALYTICS_CONCURRENCY',
    setting: 'analyticsConcurrency',
    default: '2',
    value: integer(1, 1000),
    secret: false,
    description:
      'analytics queries (lists, stats, term detail, CSV exports) running at once per customer and process, each in a lane of the ' +
      'embedded engine of its own; 4 more per slot wait, then 429 with `Retry-After`; answers from the answer cache take no slot',
  }),
  variable({
    name: 'METRICS_TOKEN',
    setting: 'metricsToken',
    value: atLeast(16, 'must be at least 16 characters'),
    secret: true,
    description: 'when set, `/metrics` needs `Authorization: Bearer <token>` (16+ characters); unset: public',
  }),
  variable({
    name: 'DOCS_PUBLIC',
    setting: 'docsPublic',
    default: 'true',
    value: flag,
    secret: false,
    description: '`false`: `/docs` and `/docs-json` need a valid credential of a customer',
  }),
  variable({
    name: 'JWT_MAX_LIFETIME_S',
    setting: 'jwtMaxLifetimeS',
    default: '2592000',
    value: integer(0, 315_360_000),
    secret: false,
    description: 'a JWT whose `exp - iat` (or `exp - now` without `iat`) is longer is refused with 401 naming the rule; 0 turns it off',
  }),
] as const;

// A setting no variable fills would stay undefined in every AppConfig: this line stops the build naming it.
type Undeclared = Exclude<SettingPath, (typeof DECLARED)[number]['setting']>;
const everySettingDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
void everySettingDeclared;

/** Every environment variable the service reads, in the order of docs/configuration.md. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = DECLARED;
