import { randomUUID } from 'node:crypto';
import { signRequest } from '@app/auth';
import { freshDir, startService, type Service } from '../support/processes';
import { BASIC, LEGACY_SECRET, nonce } from '../support/test-app';

// The attacker's side lives in bench/, which the attack benchmark shares (bench/ is built without test/).
export { bulkyEvents, getFrom, memoryOf, sleep, timedHealth, upload, type Outcome, type Upload } from '../../bench/attack-client';

const STANDALONE = 'apps/standalone/src/main.js';
/** The heap limit the attacked process runs with: an attack that buffers bodies on the heap kills it. */
export const HEAP_LIMIT_MB = 384;

/** The real embedded service as its own process, with a heap limit, Basic credentials and the legacy key. */
export function startTarget(env: Record<string, string> = {}): Promise<Service> {
  return startService(
    STANDALONE,
    {
      DATA_DIR: freshDir('attack'),
      SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
      SERVICE_LEGACY_SECRET: LEGACY_SECRET,
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}`,
      ...env,
    },
    60_000,
  );
}

/** The signed request a customer sends during the attack: one event with a phrase of its own. */
export function signedEvent(phrase: string): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ events: [{ id: randomUUID(), phrase, language: 'en', hits: 3 }] });
  const n = nonce();
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-service-nonce': n, 'x-service-hash': signRequest(LEGACY_SECRET, n, body) },
  };
}

export const basicAuthorization = (password = BASIC.password) => `Basic ${Buffer.from(`${BASIC.login}:${password}`).toString('base64')}`;

/** How often `phrase` was searched today, as GET /search-terms counts it (Basic credentials). */
export async function countOf(base: string, phrase: string): Promise<number> {
  const res = await fetch(`${base}/search-terms?since=1d&_end=1000`, { headers: { authorization: basicAuthorization() } });
  if (res.status !== 200) {
    throw new Error(`GET /search-terms answered ${res.status}: ${await res.text()}`);
  }
  const terms = (await res.json()) as { search_phrase: string; count: number }[];
  return terms.find((t) => t.search_phrase === phrase)?.count ?? 0;
}
