import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';
import * as path from 'node:path';
import * as jwt from 'jsonwebtoken';
import { loadConfig, type AppConfig } from '@app/config';
import { createHttpApp } from '@app/http';
import { signRequest } from '@app/auth';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';
import { OpenApiContract } from './openapi-contract';
import { storageEnv } from './storage-mode';
import { WORKER_DATA_DIR } from './worker-dir';

export { WORKER_DATA_DIR } from './worker-dir';

export const BASIC = { login: 'admin', password: 'test-password-123' };
export const JWT_SECRET = 'jwt-secret-for-tests-0123456789abcdef';
export const LEGACY_SECRET = 'legacy-secret-for-tests-0123456789';

export interface TestApp {
  app: INestApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

export function uniqueDatabase(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Boots the embedded composition app with real HTTP on an ephemeral loopback port. */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    DATA_DIR: WORKER_DATA_DIR,
    CLICKHOUSE_DATABASE: uniqueDatabase(),
    SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
    SERVICE_JWT_SECRET: JWT_SECRET,
    SERVICE_LEGACY_SECRET: LEGACY_SECRET,
    SERVICE_INSTANCES: 'live,stage',
    LOG_LEVEL: process.env.TEST_LOGS ? 'debug' : 'silent',
    // The suites send hundreds of deliberate failures from 127.0.0.1 (the authentication matrix, the fuzzer):
    // the per-address limit of failed authentications is off unless a suite sets it (test/rate-limit.e2e.spec.ts).
    AUTH_FAILURES_PER_MINUTE: '0',
    // The suites read engagement figures right after writing them: computed at every request unless a suite computes
    // them ahead (test/engagement.property.spec.ts, test/engagement-refresh.e2e.spec.ts).
    ENGAGEMENT_REFRESH_MS: '0',
    // Apps of one jest worker share one engine, on connections of their own: one app's check could see another's insert
    // between its table and its views. Off unless a suite runs it (test/storage-check.e2e.spec.ts calls it itself).
    STORAGE_CHECK_MS: '0',
    // TEST_STORAGE=server: the run's ClickHouse server (test/support/storage-mode.ts).
    ...storageEnv(),
    ...env,
  });
  // TEST_LOGS=1 shows the apps' logs while debugging a test.
  const app = await createHttpApp(StandaloneModule.forRoot(config), config, { logger: process.env.TEST_LOGS ? undefined : false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}`, config, close: () => app.close() };
}

export function basicHeader(login = BASIC.login, password = BASIC.password): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
}

export function jwtHeader(
  claims: Record<string, unknown>,
  options: jwt.SignOptions = { expiresIn: 300 },
  secret = JWT_SECRET,
): Record<string, string> {
  return { authorization: `Bearer ${jwt.sign({ sub: 'user-1', ...claims }, secret, { algorithm: 'HS256', ...options })}` };
}

export function nonce(): string {
  return randomBytes(16).toString('hex');
}

/** The HMAC headers (docs/hmac.md) over exactly `body` (empty string when there is none). */
export function hmacHeaders(secret: string, body: string | Buffer = '', n = nonce()): Record<string, string> {
  return { 'x-service-nonce': n, 'x-service-hash': signRequest(secret, n, body), 'content-type': 'application/json' };
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  body: T;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  localAddress?: string;
}

/**
 * A real HTTP request over node:http (fetch cannot set Host, which tenancy tests need). The body is sent
 * exactly as given: a string is not re-serialised.
 *
 * Every response is checked against the service's contract, docs/openapi.json (test/support/openapi-contract.ts):
 * a response that violates it rejects the promise with an error naming the request, the status and each
 * violation, so the test fails where it sent the request. Every call goes to the service: there is no opt-out.
 */
export function http<T = unknown>(url: string, options: HttpOptions = {}): Promise<HttpResult<T>> {
  const method = options.method ?? 'GET';
  // Taken here so that a violation's stack shows the test that sent the request, not the socket's callback.
  const callSite: { stack?: string } = {};
  Error.captureStackTrace(callSite, http);
  return new Promise((resolve, reject) => {
    // A body is always framed with Content-Length (Node sends DELETE and GET bodies unframed otherwise).
    const headers =
      options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
    // localAddress: the client address the request comes from (127.0.0.2 etc. reach a loopback server on Linux).
    const req = request(url, { method, headers, localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON: keep the text */
        }
        const result = { status: res.statusCode ?? 0, headers: res.headers, body: body as T };
        const violation = checkContract(method, url, options.headers, result, text, callSite);
        if (violation) {
          reject(violation);
        } else {
          resolve(result);
        }
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The service's contract, read once per test file (jest gives every file its own module registry). */
const OPENAPI_DOCUMENT = path.resolve(__dirname, '../../docs/openapi.json');
let contract: OpenApiContract | undefined;

/**
 * OPENAPI_CONTRACT=report, a debugging aid: a violation does not fail the request but is appended to
 * tmp/openapi-contract-violations.txt, as `METHOD /template STATUS: violation` lines (distinct within a test file;
 * `sort -u` the file across files and workers). Unset (the default): a violation fails the request.
 */
const REPORT = process.env.OPENAPI_CONTRACT === 'report' ? path.resolve(__dirname, '../../tmp/openapi-contract-violations.txt') : undefined;
const reported = new Set<string>();

/** The error for a response that violates the contract, or undefined when it conforms (or in report mode). */
function checkContract(
  method: string,
  url: string,
  requestHeaders: Record<string, string> | undefined,
  result: HttpResult,
  text: string,
  callSite: { stack?: string },
): Error | undefined {
  contract ??= OpenApiContract.fromFile(OPENAPI_DOCUMENT);
  const { pathname, search } = new URL(url);
  const exchange = {
    method,
    url: pathname + search,
    status: result.status,
    headers: result.headers,
    body: result.body,
    text,
    requestHeaders,
  };
  const violations = contract.check(exchange);
  if (!violations.length) {
    return undefined;
  }
  if (REPORT) {
    const operation = contract.operationOf(method, pathname) ?? `${method.toUpperCase()} ${pathname} (no operation)`;
    const lines = violations
      .map((v) => `${operation} ${result.status}: ${v.replace(/\[\d+\]/g, '[*]')}`)
      .filter((line) => !reported.has(line) && reported.add(line));
    if (lines.length) {
      mkdirSync(path.dirname(REPORT), { recursive: true });
      appendFileSync(REPORT, lines.map((line) => `${line}\n`).join(''));
    }
    return undefined;
  }
  const shown = text.length > 500 ? `${text.slice(0, 500)}...` : text;
  const message =
    `${method.toUpperCase()} ${pathname}${search} answered ${result.status}, which docs/openapi.json does not describe:\n` +
    violations.map((v) => `  - ${v}\n`).join('') +
    `  response body: ${shown || '(none)'}`;
  const error = new Error(message);
  error.name = 'OpenApiContractViolation';
  error.stack = `${error.name}: ${message}\n${callSite.stack?.split('\n').slice(1).join('\n') ?? ''}`;
  return error;
}

/** Creates an API key with Basic credentials and returns its secret and id. */
export async function createKey(url: string, permissions: string[], headers = basicHeader()): Promise<{ id: string; secret: string }> {
  const res = await http<{ id: string; secret: string }>(`${url}/secret`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ description: `test ${permissions.join(' ')}`, permissions }),
  });
  if (res.status !== 201) {
    throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}
