import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { isIP } from 'node:net';
import {
  getMetadataStorage,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  validateSync,
} from 'class-validator';
import { Type } from 'class-transformer';

/** A DNS label: customers and instances appear in host names and topic keys. */
export const NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const NAME_LIST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(,[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An IP address literal (IPv4 or IPv6) or a host name: what a server can listen on. */
function IsListenAddress(): PropertyDecorator {
  return ValidateBy({
    name: 'isListenAddress',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (isIP(value) !== 0 || HOST_NAME.test(value)),
      defaultMessage: () => 'HOST must be an IP address or a host name (0.0.0.0 for all interfaces, 127.0.0.1 for local only)',
    },
  });
}

/**
 * The environment as the operator writes it. Every name here is a contract (DESIGN.md section 3):
 * tools outside this repository set them.
 */
class EnvironmentVariables {
  @IsOptional() @IsListenAddress()
  HOST?: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  @IsOptional() @IsString() @MinLength(1)
  DATA_DIR?: string;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  CLICKHOUSE_URL?: string;

  @IsOptional() @IsString()
  CLICKHOUSE_USER?: string;

  @IsOptional() @IsString()
  CLICKHOUSE_PASSWORD?: string;

  @IsOptional() @Matches(IDENTIFIER, { message: 'CLICKHOUSE_DATABASE must be an identifier (letters, digits, _)' })
  CLICKHOUSE_DATABASE?: string;

  @IsOptional() @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated list of host:port' })
  KAFKA_BROKERS?: string;

  @IsOptional() @Matches(/^[A-Za-z0-9._-]{1,249}$/, { message: 'KAFKA_TOPIC_SEARCH_EVENTS must be a valid Kafka topic name' })
  KAFKA_TOPIC_SEARCH_EVENTS?: string;

  @IsOptional() @Matches(/^[A-Za-z0-9._-]{1,249}$/, { message: 'KAFKA_TOPIC_DOCUMENTS must be a valid Kafka topic name' })
  KAFKA_TOPIC_DOCUMENTS?: string;

  @IsOptional() @IsString() @MinLength(1)
  KAFKA_GROUP_ID?: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(300000)
  KAFKA_SESSION_TIMEOUT_MS?: number;

  @IsOptional() @Matches(NAME_PATTERN, { message: 'SERVICE_CUSTOMER must be a lower-case DNS label' })
  SERVICE_CUSTOMER?: string;

  @IsOptional() @Matches(/^[a-z0-9.-]+$/, { message: 'BASE_DOMAIN must be a lower-case domain name' })
  BASE_DOMAIN?: string;

  @IsOptional() @Matches(NAME_LIST, { message: 'SERVICE_INSTANCES must be a comma-separated list of lower-case DNS labels' })
  SERVICE_INSTANCES?: string;

  @IsOptional() @IsString() @MinLength(16, { message: 'SERVICE_LEGACY_SECRET must be at least 16 characters' })
  SERVICE_LEGACY_SECRET?: string;

  @IsOptional() @IsString() @MinLength(32, { message: 'SERVICE_JWT_SECRET must be at least 32 characters (HS256 needs 256 bits)' })
  SERVICE_JWT_SECRET?: string;

  @IsOptional() @Matches(/-----BEGIN [A-Z ]*PUBLIC KEY-----/, { message: 'SERVICE_JWT_PUBLIC_KEY must be a PEM public key' })
  SERVICE_JWT_PUBLIC_KEY?: string;

  @IsOptional() @Matches(/^[^:\s]+:.{8,}$/, { message: 'SERVICE_BASIC_AUTH must be login:password with a password of at least 8 characters' })
  SERVICE_BASIC_AUTH?: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(3650)
  RETENTION_DAYS?: number;

  @IsOptional() @IsString()
  CORS_ORIGINS?: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional() @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_NETWORKS?: string;

  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(60000)
  SEARCH_TERMS_CACHE_MS?: number;

  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10_000_000)
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10_000_000)
  AUTH_FAILURES_PER_MINUTE?: number;

  @IsOptional() @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], { message: 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent' })
  LOG_LEVEL?: string;

  @IsOptional()
  @Matches(/^[a-z0-9-]+=[a-z,]+(;[a-z0-9-]+=[a-z,]+)*$/, {
    message: 'WEBHOOK_ENTITY_TYPES must look like live=synonym,landingpage;stage=menu',
  })
  WEBHOOK_ENTITY_TYPES?: string;
}

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** The validated configuration every module receives. Read-only after start-up. */
export class AppConfig {
  /** The address every app listens on; 0.0.0.0 (all interfaces) by default. */
  readonly host!: string;
  readonly port!: number;
  readonly dataDir!: string;
  readonly clickhouse!: { url?: string; user: string; password: string; database: string };
  readonly kafka!: {
    brokers?: string[];
    topicSearchEvents: string;
    topicDocuments: string;
    groupId: string;
    sessionTimeoutMs: number;
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
  readonly logLevel!: string;
  /** Authenticated requests per customer per minute and process; 0 turns rate limiting off. */
  readonly rateLimitPerMinute!: number;
  /** Failed authentications per client address per minute and process before that address gets 429; 0 = off. */
  readonly authFailuresPerMinute!: number;

  /** Embedded when no credential source is configured: the first start generates one (DESIGN.md section 3). */
  get hasConfiguredCredentials(): boolean {
    return Boolean(this.legacySecret || this.basicAuth || this.jwtSecret || this.jwtPublicKey);
  }

  get multiCustomer(): boolean {
    return this.baseDomain !== undefined;
  }
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return items.length > 0 ? items : undefined;
}

function parseEntityTypes(value: string | undefined): Record<string, string[]> | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, string[]> = {};
  for (const part of value.split(';')) {
    const [instance, types] = part.split('=');
    out[instance] = types.split(',').filter((t) => t.length > 0);
  }
  return out;
}

/**
 * Validates the environment once; a wrong value throws a ConfigurationError whose message names each
 * offending variable. Empty strings count as unset, as in most twelve-factor tools.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') raw[k] = v;
  const vars = plainToInstance(EnvironmentVariables, raw, { excludeExtraneousValues: false });
  const errors = validateSync(vars, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const shown = e.property.includes('SECRET') || e.property.includes('PASSWORD') || e.property.includes('AUTH') ? '(hidden)' : JSON.stringify(raw[e.property]);
      return `${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join('; ')}`;
    });
    throw new ConfigurationError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const basic = vars.SERVICE_BASIC_AUTH;
  const brokers = list(vars.KAFKA_BROKERS);
  const entityTypes = parseEntityTypes(vars.WEBHOOK_ENTITY_TYPES);
  const config = Object.assign(new AppConfig(), {
    host: vars.HOST ?? '0.0.0.0',
    port: vars.PORT ?? 3000,
    dataDir: vars.DATA_DIR ?? './data',
    clickhouse: {
      url: vars.CLICKHOUSE_URL,
      user: vars.CLICKHOUSE_USER ?? 'default',
      password: vars.CLICKHOUSE_PASSWORD ?? '',
      database: vars.CLICKHOUSE_DATABASE ?? 'search_analytics',
    },
    kafka: {
      brokers,
      topicSearchEvents: vars.KAFKA_TOPIC_SEARCH_EVENTS ?? 'search-events',
      topicDocuments: vars.KAFKA_TOPIC_DOCUMENTS ?? 'catalogue-documents',
      groupId: vars.KAFKA_GROUP_ID ?? 'search-analytics-ingest',
      sessionTimeoutMs: vars.KAFKA_SESSION_TIMEOUT_MS ?? 10000,
    },
    customer: vars.SERVICE_CUSTOMER ?? 'demo',
    baseDomain: vars.BASE_DOMAIN,
    instances: list(vars.SERVICE_INSTANCES) ?? ['live'],
    legacySecret: vars.SERVICE_LEGACY_SECRET,
    jwtSecret: vars.SERVICE_JWT_SECRET,
    jwtPublicKey: vars.SERVICE_JWT_PUBLIC_KEY?.replace(/\\n/g, '\n'),
    basicAuth: basic ? { login: basic.slice(0, basic.indexOf(':')), password: basic.slice(basic.indexOf(':') + 1) } : undefined,
    retentionDays: vars.RETENTION_DAYS ?? 400,
    corsOrigins: list(vars.CORS_ORIGINS),
    webhookTimeoutMs: vars.WEBHOOK_TIMEOUT_MS ?? 3000,
    webhookAllowPrivateNetworks: vars.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
    webhookEntityTypes: entityTypes,
    searchTermsCacheMs: vars.SEARCH_TERMS_CACHE_MS ?? 1000,
    logLevel: vars.LOG_LEVEL ?? 'info',
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? 6000,
    authFailuresPerMinute: vars.AUTH_FAILURES_PER_MINUTE ?? 60,
  });
  if (config.jwtSecret && config.jwtPublicKey) {
    throw new ConfigurationError('Invalid configuration:\n  SERVICE_JWT_SECRET and SERVICE_JWT_PUBLIC_KEY are both set: choose HS256 (secret) or RS256/ES256 (public key)');
  }
  return config;
}

/** Every environment variable the service reads (its validated names). */
export function configVariableNames(): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(EnvironmentVariables, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))].sort();
}
