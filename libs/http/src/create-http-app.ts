import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import * as qs from 'qs';
import type { AppConfig } from '@app/config';
import { MetricsService, httpMetrics } from '@app/metrics';
import { Logger } from 'nestjs-pino';
import { jsonBody } from './json-body.middleware';
import { serveOpenApi } from './openapi';
import { ServiceExpressAdapter } from './service-express.adapter';

/** Up to 1,000 ids[] per DELETE; qs' default arrayLimit (20) would turn more into an object. */
const QUERY_ARRAY_LIMIT = 1000;

export interface HttpAppOptions {
  logger?: LoggerService | LogLevel[] | false;
}

/** Builds the Express-based Nest application with the service's HTTP conventions. */
export async function createHttpApp(rootModule: unknown, config: AppConfig, options: HttpAppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(rootModule as never, new ServiceExpressAdapter(), {
    bodyParser: false,
    abortOnError: false,
    // Start-up lines are buffered and then written through pino, as JSON like every other line.
    bufferLogs: options.logger === undefined,
    logger: options.logger,
  });
  if (options.logger === undefined) app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Express 5's default "simple" parser reads ids[]=a as a key named "ids[]".
  app.set('query parser', (query: string) =>
    qs.parse(query, { arrayLimit: QUERY_ARRAY_LIMIT, parameterLimit: QUERY_ARRAY_LIMIT * 2, depth: 5, throwOnLimitExceeded: false }),
  );
  app.use(httpMetrics(app.get(MetricsService)));
  app.use(jsonBody());
  if (config.corsOrigins) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Content-Type', 'Authorization', 'X-Service-Nonce', 'X-Service-Hash', 'X-Service-Instance'],
      exposedHeaders: ['X-Total-Count'],
    });
  }
  serveOpenApi(app);
  app.enableShutdownHooks();
  return app;
}
