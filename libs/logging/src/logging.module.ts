import { DynamicModule, Module, type LoggerService } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Logger, LoggerModule, PinoLogger, type Params } from 'nestjs-pino';
import type { AppConfig } from '@app/config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** The request id: X-Request-Id when the caller sends a well-formed one, else a new UUID. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const sent = headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Headers that carry credentials: never written to a log. */
export const REDACTED_HEADERS = ['authorization', 'cookie', 'x-service-hash', 'x-service-nonce', 'x-algolia-api-key'];

/** Query parameters whose values can be credentials (a link with a token, a signed URL): never written to a log. */
export const REDACTED_QUERY_PARAMETERS = ['token', 'key', 'signature', 'password', 'x-algolia-api-key'];

/** Paths whose last segment is personal data (a shopper's user token to erase): never written to a log. */
const REDACTED_PATH = /^(\/1\/usertokens\/)[^?]*/i;

const CENSOR = '[redacted]';

/**
 * Whether a query parameter's name (as sent: %-escaped, `+` for a space) is one of REDACTED_QUERY_PARAMETERS, in any
 * case and with any bracket suffix (`token[]`, `Key`, `%74oken` all are).
 */
function isRedactedParameter(sent: string): boolean {
  let name = sent.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    /* a malformed escape: compare the name as sent */
  }
  return REDACTED_QUERY_PARAMETERS.includes(name.split('[')[0].toLowerCase());
}

/**
 * The URL with the value of every REDACTED_QUERY_PARAMETERS parameter, and the user token of a REDACTED_PATH, replaced
 * by `[redacted]`, the rest as sent.
 */
export function redactUrl(sent: string): string {
  const url = sent.replace(REDACTED_PATH, `$1${CENSOR}`);
  const start = url.indexOf('?');
  if (start < 0) {
    return url;
  }
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && isRedactedParameter(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${CENSOR}` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

/** The request as pino-http's serializer wrote it, with the query string's credentials redacted (url and query). */
function redactRequest(req: { url?: unknown; query?: unknown }): unknown {
  if (typeof req.url === 'string') {
    req.url = redactUrl(req.url);
  }
  if (typeof req.query === 'object' && req.query !== null) {
    req.query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, isRedactedParameter(k) ? CENSOR : (v as unknown)]));
  }
  return req;
}

/**
 * The settings of every app's logger: JSON lines (pino) at LOG_LEVEL, credentials redacted (headers, and the values
 * of credential query parameters).
 */
function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_HEADERS.map((h) => `req.headers["${h}"]`), censor: CENSOR },
      // pino-http applies its standard request serializer first, then this one.
      serializers: { req: redactRequest },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    },
  };
}

/**
 * The same JSON logger for the time before the app's own exists: the lines of a start that fails while the modules
 * are built are written through it, as JSON like every other line (not as Nest's coloured console text).
 */
export function startupLogger(config: AppConfig): LoggerService {
  const params = loggerParams(config);
  return new Logger(new PinoLogger(params), params);
}

/**
 * Structured JSON logs (pino) with the request id on every line of a request (the HTTP server assigns it with
 * requestIdFrom and echoes it in X-Request-Id). Credentials are redacted.
 */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: LoggingModule, imports: [LoggerModule.forRoot(loggerParams(config))] };
  }
}
