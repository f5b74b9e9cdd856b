import { HttpException, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Logger } from 'nestjs-pino';
import * as qs from 'qs';
import { AUTH_HEADERS, CredentialsGate } from '@app/auth';
import type { AppConfig } from '@app/config';
import { requestIdFrom, startupLogger } from '@app/logging';
import { MetricsService } from '@app/metrics';
import { registerHttpMetrics } from './http-metrics.hooks';
import { declaresBody, LARGE_BODY_LIMIT, registerBodyLimits, registerRawBody } from './body-parser';
import { registerCredentialsGate, registerRouteAccess } from './credentials-gate.hooks';
import { serveOpenApi } from './openapi';
import { registerSecurityHeaders } from './security-headers';
import { answerBody, errorBody } from './all-exceptions.filter';

/** The total of a paginated list (`_start`/`_end`), exposed to browsers across origins. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
/** The time of the newest event an analytics answer counts (docs/architecture.md, "Counting rules"). */
export const DATA_UPDATED_AT_HEADER = 'X-Data-Updated-At';
/** The answer headers browsers may read across origins (Retry-After: when a refused call may come again). */
export const EXPOSED_HEADERS = [TOTAL_COUNT_HEADER, DATA_UPDATED_AT_HEADER, 'Retry-After'];

/** Up to 1,000 ids[] per DELETE; qs' default arrayLimit (20) would turn more into an object. */
const QUERY_ARRAY_LIMIT = 1000;
/** Parameters parsed: 1,000 `ids[]` and a few more (qs's cost grows with them: 2,000 nested ones took 4 ms, 1,100 1.3 ms). */
const QUERY_PARAMETER_LIMIT = QUERY_ARRAY_LIMIT + 100;
/**
 * The longest query string parsed on DELETE (1,000 `ids[]` of DELETE /notifications take about 45 KB), and on every
 * other method (no other route reads more than a few short parameters): the router parses it before any hook runs, so
 * a longer one is not parsed and its request gets a 414 (docs/security.md). 16 requests at once with a 63 KB nested
 * query made a customer's requests 4-10x slower; with 8 KB and the parse deferred (lazyQuery), 3.4x (plain ones 0.9x).
 */
export const MAX_QUERY_BYTES = 64 * 1024;
export const MAX_READ_QUERY_BYTES = 8 * 1024;
const MALFORMED_URL = 'Malformed URL: a %-escape is not valid';

/** Node's default 16 KB header limit covers the request line too; 1,000 ids[] need more. */
export const MAX_HEADER_BYTES = 128 * 1024;

export interface HttpAppOptions {
  logger?: LoggerService | LogLevel[] | false;
}

/** The app's CredentialsGate; none in an app without credentials (the ingest app serves only public routes). */
function gateOf(app: NestFastifyApplication): CredentialsGate | undefined {
  try {
    return app.get(CredentialsGate, { strict: false });
  } catch {
    return undefined;
  }
}

/**
 * The query string of a request's URL as the router hands it to the parser: after the first `?` or `#` (find-my-way's
 * delimiters), so the 414 check and the parser see the same string.
 */
function queryOf(url: string): string {
  const at = url.search(/[?#]/);
  return at < 0 ? '' : url.slice(at + 1);
}

/** Where a request whose query string was too long to parse keeps the limit it went over (for the 414). */
const QUERY_TOO_LONG = Symbol('queryTooLong');

/**
 * The request as the router may parse it: a query string over the method's limit (MAX_QUERY_BYTES on DELETE, whose
 * `ids[]` lists need it, MAX_READ_QUERY_BYTES elsewhere) is cut off before the router parses it (it does before any
 * hook), and the request is marked for the first hook's 414.
 */
function withBoundedQuery(req: IncomingMessage): IncomingMessage {
  const url = req.url ?? '';
  const limit = req.method === 'DELETE' ? MAX_QUERY_BYTES : MAX_READ_QUERY_BYTES;
  if (queryOf(url).length > limit) {
    (req as { [QUERY_TOO_LONG]?: number })[QUERY_TOO_LONG] = limit;
    req.url = url.slice(0, url.search(/[?#]/));
  }
  return req;
}

/**
 * Express-style ids[]=a&ids[]=b arrays, as DELETE /notifications and DELETE /entities/:type take them: one level of
 * brackets is all a route reads (qs keeps what lies deeper as one key of the second level: `a[b][c]=1` is
 * `{ a: { b: { '[c]': '1' } } }`); a query over MAX_QUERY_BYTES is not parsed (the request gets a 414).
 */
export function parseQuery(query: string): Record<string, unknown> {
  return query.length > MAX_QUERY_BYTES
    ? {}
    : qs.parse(query, { arrayLimit: QUERY_ARRAY_LIMIT, parameterLimit: QUERY_PARAMETER_LIMIT, depth: 1, throwOnLimitExceeded: false });
}

/**
 * The query as the router hands it to the request: parsed when first read, so a route that reads none (`/health/live`,
 * the routes a request without credentials is refused on) never pays for parsing it (an 8 KB nested query costs qs
 * 0.8 ms, 8x a plain request).
 */
export function lazyQuery(query: string): Record<string, unknown> {
  if (query === '') {
    return {};
  }
  let parsed: Record<string, unknown> | undefined;
  const target = (): Record<string, unknown> => (parsed ??= parseQuery(query));
  const empty: Record<string, unknown> = {};
  return new Proxy(empty, {
    get: (_, key): unknown => Reflect.get(target(), key),
    set: (_, key, value: unknown) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * Builds the Nest application on Fastify (measured faster than Express for this service,
 * docs/benchmarks/history/2026-11-21-express-vs-fastify.md) with the service's HTTP conventions: raw-body JSON parsing,
 * qs query strings, the header limit, metrics, OpenAPI.
 */
export async function createHttpApp(rootModule: unknown, config: AppConfig, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: LARGE_BODY_LIMIT,
    // Ids are checked by the routes (400 naming the rule); a shorter cap would turn a long id into a 404.
    maxParamLength: MAX_HEADER_BYTES,
    // A %-escape the router cannot decode: the service's 400 and error body, with its request id (Fastify's own
    // answer has neither).
    frameworkErrors: (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      void reply
        .code(400)
        .header('X-Request-Id', req.id)
        .send(answerBody(req.url, 400, errorBody(400, error.code === 'FST_ERR_BAD_URL' ? MALFORMED_URL : 'Bad request')));
    },
    querystringParser: lazyQuery,
    serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
      createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => handler(withBoundedQuery(req), res)),
    return503OnClosing: true,
    // TRUST_PROXY: which proxies may name the client in X-Forwarded-For (request.ip, the address the limits count).
    trustProxy: config.trustProxy,
    genReqId: (req: IncomingMessage) => requestIdFrom(req.headers),
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    // A preflight has no body: one it carries is never read (its framing headers go, Node's parser keeps the real
    // framing), whatever the answer (a 404 too), and its connection ends with the answer.
    if (req.method === 'OPTIONS' && declaresBody(req.headers)) {
      for (const header of ['content-type', 'content-length', 'transfer-encoding']) {
        delete req.headers[header];
      }
      reply.header('connection', 'close');
    }
    const limit = (req.raw as { [QUERY_TOO_LONG]?: number })[QUERY_TOO_LONG];
    // A request to no route gets its 404 (registerBodyLimits), whatever its query.
    if (limit !== undefined && !req.is404) {
      throw new HttpException(
        `The query string is longer than ${limit} bytes${limit < MAX_QUERY_BYTES ? ` (${MAX_QUERY_BYTES} on DELETE)` : ''}`,
        414,
      );
    }
  });
  registerSecurityHeaders(fastify);
  // Before Nest registers its routes: the limits are set per route as they are added.
  registerBodyLimits(fastify);
  registerRouteAccess(fastify, config);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    bodyParser: false,
    abortOnError: false,
    // Start-up lines are buffered and then written through the app's pino logger, as JSON like every other line;
    // when building the app fails, through the same logger made without it.
    bufferLogs: options.logger === undefined,
    logger: options.logger ?? startupLogger(config),
  });
  if (options.logger === undefined) {
    app.useLogger(app.get(Logger));
  }
  registerRawBody(fastify);
  registerCredentialsGate(fastify, config, gateOf(app));
  registerHttpMetrics(fastify, app.get(MetricsService));
  if (config.corsOrigins) {
    app.enableCors({
      origin: config.corsOrigins,
      // If-Match / If-None-Match and ETag: conditional entity saves (PUT /entities/:type/:id).
      allowedHeaders: ['Content-Type', 'Authorization', 'If-Match', 'If-None-Match', ...AUTH_HEADERS.map((h) => h.name)],
      exposedHeaders: [...EXPOSED_HEADERS, 'ETag'],
    });
  }
  serveOpenApi(app);
  app.enableShutdownHooks();
  return app;
}
