import { CONFIG_VARIABLES } from './variables';

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/**
 * The validated configuration every module receives. Read-only after start-up. Each field is filled from the
 * environment variable that names it as its setting (variables.ts); tests may also build one with Object.assign.
 */
export class AppConfig {
  /** The address every app listens on; 0.0.0.0 (all interfaces) by default. */
  readonly host!: string;
  readonly port!: number;
  readonly dataDir!: string;
  readonly clickhouse!: { url?: string; user: string; password: string; database: string; cluster?: string; replicated: boolean };
  /** false: migrations are applied only by `cli migrate`; the apps wait for them. */
  readonly migrateOnStart!: boolean;
  readonly kafka!: {
    brokers?: string[];
    topicSearchEvents: string;
    topicDocuments: string;
    groupId: string;
    sessionTimeoutMs: number;
    duplicateCheckMs: number;
    duplicateCheckHours: number;
  };
  readonly customer!: string;
  readonly baseDomain?: string;
  readonly instances!: string[];
  readonly legacySecret?: string;
  readonly jwtSecret?: string;
  readonly jwtPublicKey?: string;
  readonly basicAuth?: { login: string; password: string };
  readonly retentionDays!: number;
  readonly corsOrigins?: string[];
  readonly webhookTimeoutMs!: number;
  readonly webhookAllowPrivateNetworks!: boolean;
  readonly webhookEntityTypes?: Record<string, string[]>;
  /** How long a GET /search-terms answer may be reused; 0 turns the cache off. */
  readonly searchTermsCacheMs!: number;
  /** How often the engagement figures of each hour are computed ahead of the requests; 0: at every request. */
  readonly engagementRefreshMs!: number;
  /** How often half-done inserts are looked for and repaired (also at every start); 0: never. */
  readonly storageCheckMs!: number;
  readonly logLevel!: string;
  /** Authenticated requests per customer, route and minute, per process, POST /events aside; 0 turns it off. */
  readonly rateLimitPerMinute!: number;
  /** Requests to POST /events per customer per minute and process; 0 turns it off. */
  readonly intakePerMinute!: number;
  /** Requests to POST /1/events per client address (IPv6: /64) per minute and process; 0 turns it off. */
  readonly collectPerMinute!: number;
  /** Interactions (one per object) POST /1/events may store per client address per minute and process; 0 = off. */
  readonly collectRowsPerMinute!: number;
  /** Fastify's trustProxy: which proxies may name the client in X-Forwarded-For (false: none). */
  readonly trustProxy!: boolean | number | string[];
  /** Failed authentications per client address per minute and process before that address gets 429; 0 = off. */
  readonly authFailuresPerMinute!: number;
  /** Bytes buffered at once for bodies whose signature is not yet verified. */
  readonly unverifiedBodyBytes!: number;
  /** Password checks (scrypt) running at once per process. */
  readonly passwordHashConcurrency!: number;
  /** Analytics queries running at once per customer and process. */
  readonly analyticsConcurrency!: number;
  /** When set, /metrics needs it as a bearer token. */
  readonly metricsToken?: string;
  /** false: /docs and /docs-json need a credential. */
  readonly docsPublic!: boolean;
  /** The longest JWT lifetime accepted, in seconds; 0 = no limit. */
  readonly jwtMaxLifetimeS!: number;

  /** When no credential source is configured, the first start generates credentials and prints them (docs/architecture.md). */
  get hasConfiguredCredentials(): boolean {
    return Boolean(this.legacySecret || this.basicAuth || this.jwtSecret || this.jwtPublicKey);
  }

  get multiCustomer(): boolean {
    return this.baseDomain !== undefined;
  }
}

/** Puts a value at a setting path: 'port' or, inside its group, 'kafka.brokers'. */
function put(settings: Record<string, unknown>, path: string, value: unknown): void {
  const [group, field] = path.split('.');
  if (field === undefined) {
    settings[group] = value;
  } else {
    ((settings[group] ??= {}) as Record<string, unknown>)[field] = value;
  }
}

/**
 * Validates the environment once; a wrong value throws a ConfigurationError whose message names each
 * offending variable (secrets' values shown as `(hidden)`). Empty strings count as unset, as in most
 * twelve-factor tools.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const settings: Record<string, unknown> = {};
  for (const variable of CONFIG_VARIABLES) {
    const given = env[variable.name] || undefined;
    // Only the operator's text is checked: every default passes its own check (variables.spec.ts).
    const problem = given === undefined ? undefined : variable.value.problem?.(given);
    if (problem !== undefined) {
      problems.push(`${variable.name}=${variable.secret ? '(hidden)' : JSON.stringify(given)}: ${variable.name} ${problem}`);
      continue;
    }
    const read = (text: string | undefined) => (text === undefined ? undefined : variable.value.read(text));
    put(settings, variable.setting, read(given) ?? read(variable.default));
  }
  if (problems.length > 0) {
    throw new ConfigurationError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = Object.assign(new AppConfig(), settings);
  if (config.jwtSecret && config.jwtPublicKey) {
    throw new ConfigurationError(
      'Invalid configuration:\n  SERVICE_JWT_SECRET and SERVICE_JWT_PUBLIC_KEY are both set: ' +
        'choose HS256 (secret) or RS256/ES256 (public key)',
    );
  }
  if (config.clickhouse.cluster !== undefined && config.clickhouse.url === undefined) {
    throw new ConfigurationError(
      'Invalid configuration:\n  CLICKHOUSE_CLUSTER is set without CLICKHOUSE_URL: a cluster is reached through a server',
    );
  }
  if (!config.migrateOnStart && config.clickhouse.url === undefined) {
    throw new ConfigurationError(
      'Invalid configuration:\n  MIGRATE_ON_START=false needs CLICKHOUSE_URL: ' +
        'the embedded engine belongs to one process, which migrates it',
    );
  }
  return config;
}

/** Every environment variable the service reads, sorted by name. */
export function configVariableNames(): string[] {
  return CONFIG_VARIABLES.map((v) => v.name).sort();
}

/**
 * What every entry point does first: the configuration, or the message naming each wrong variable on stderr and
 * exit code 1 (no stack trace: the operator's fix is in the environment, not in the code).
 */
export function configOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigurationError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
