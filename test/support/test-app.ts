import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';
import * as path from 'node:path';
import * as jwt from 'jsonwebtoken';
import { loadConfig, type AppConfig } from '@app/config';
import { createHttpApp } from '@app/http';
import { signRequest } from '@app/auth';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';

/**
 * chdb binds one data directory per process: every jest worker uses its own directory, and every test file
 * its own database, so files never see each other's rows.
 */
export const WORKER_DATA_DIR = path.resolve(__dirname, '../../tmp', `jest-${process.env.JEST_WORKER_ID ?? '0'}`);

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

/** The spec's HMAC headers over exactly `body` (empty string when there is none). */
export function hmacHeaders(secret: string, body: string | Buffer = '', n = nonce()): Record<string, string> {
  return { 'x-service-nonce': n, 'x-service-hash': signRequest(secret, n, body), 'content-type': 'application/json' };
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  body: T;
}

/**
 * A real HTTP request over node:http (fetch cannot set Host, which tenancy tests need). The body is sent
 * exactly as given: a string is not re-serialised.
 */
export function http<T = unknown>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string } = {},
): Promise<HttpResult<T>> {
  return new Promise((resolve, reject) => {
    // A body is always framed with Content-Length (Node sends DELETE and GET bodies unframed otherwise).
    const headers =
      options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
    // localAddress: the client address the request comes from (127.0.0.2 etc. reach a loopback server on Linux).
    const req = request(url, { method: options.method ?? 'GET', headers, localAddress: options.localAddress }, (res) => {
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
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Creates an API key with Basic credentials and returns its secret and id. */
export async function createKey(url: string, permissions: string[], headers = basicHeader()): Promise<{ id: string; secret: string }> {
  const res = await http<{ id: string; secret: string }>(`${url}/secret`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ description: `test ${permissions.join(' ')}`, permissions }),
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
