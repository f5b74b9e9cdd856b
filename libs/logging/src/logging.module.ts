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
export const REDACTED_HEADERS = ['authorization', 'cookie', 'x-service-hash', 'x-service-nonce'];

/** The settings of every app's logger: JSON lines (pino) at LOG_LEVEL, credentials redacted. */
function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_HEADERS.map((h) => `req.headers["${h}"]`), censor: '[redacted]' },
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
