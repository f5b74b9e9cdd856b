import { DynamicModule, Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '@app/config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Headers that carry credentials: never written to a log. */
export const REDACTED_HEADERS = ['authorization', 'cookie', 'x-service-hash', 'x-service-nonce'];

/**
 * Structured JSON logs (pino) with the request id on every line of a request: X-Request-Id when the caller sends
 * a well-formed one, else a new UUID, echoed in the response. Credentials are redacted.
 */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            genReqId: (req: IncomingMessage, res: ServerResponse) => {
              const sent = req.headers['x-request-id'];
              const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
              res.setHeader('X-Request-Id', id);
              return id;
            },
            redact: { paths: REDACTED_HEADERS.map((h) => `req.headers["${h}"]`), censor: '[redacted]' },
            customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
          },
        }),
      ],
    };
  }
}
