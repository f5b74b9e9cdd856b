/**
 * The requests of the intake benchmark (bench/intake.bench.ts): one search event per POST /events, as a shop's
 * front end sends it, with a phrase that names its scenario and number (`bench-intake hmac-0.3x 17`) so that what
 * storage holds can be matched to what was answered, and its credentials: HMAC signed with a fresh nonce each time
 * (docs/hmac.md, written here from that rule), Basic, or a JWT.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import { mulberry32, randomDimensions } from './generator';

export const PHRASE_PREFIX = 'bench-intake';

export type Scheme = 'hmac' | 'basic' | 'jwt';

export interface Credentials {
  /** An API key's secret with search:write. */
  secret: string;
  /** `Basic ...` of the instance credentials. */
  basic: string;
  /** `Bearer ...`: a JWT with search.write. */
  bearer: string;
}

const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** What a search looked for, when it is not the event's own phrase: a phrase of the data set. */
export interface Search {
  phrase: string;
  language: string;
  hits: number;
}

/** The session id naming event `index` of `scenario`, for an event whose phrase is a `Search`'s. */
export const sessionOf = (scenario: string, index: number) => `${PHRASE_PREFIX} ${scenario} ${index}`;

/** The dimensions of the scale data sets (bench/generator.ts), for --dimensions. */
const drawDimensions = randomDimensions(mulberry32(46));

/**
 * Event `index` of `scenario`; with `id`, the event carries one (a retry is then not counted twice). With `search`
 * the event has its phrase, language and hits, and its session id names scenario and index instead. With
 * `dimensions` it has filters, a user token, a country and tags as the scale data sets' searches.
 */
function searchEvent(scenario: string, index: number, id: boolean, search?: Search, dimensions = false): object {
  return {
    ...(id ? { id: randomUUID() } : {}),
    phrase: search?.phrase ?? `${PHRASE_PREFIX} ${scenario} ${index}`,
    language: search?.language ?? 'en',
    hits: search?.hits ?? index % 7,
    userAgent: USER_AGENT,
    ...(dimensions ? drawDimensions(Date.now()) : {}),
    sessionId: search ? sessionOf(scenario, index) : `s-${index % 1000}`,
  };
}

/** The body of event `index` of `scenario` alone (searchEvent). */
export function eventBody(scenario: string, index: number, id: boolean, search?: Search, dimensions = false): Buffer {
  return Buffer.from(JSON.stringify({ events: [searchEvent(scenario, index, id, search, dimensions)] }));
}

/** The body of a batch of events of `scenario` numbered from `first`, one per search of `searches` (searchEvent). */
export function eventsBody(scenario: string, first: number, searches: readonly Search[]): Buffer {
  return Buffer.from(JSON.stringify({ events: searches.map((search, i) => searchEvent(scenario, first + i, false, search)) }));
}

/** The headers of a POST /events with `body`, for `scheme`: an HMAC request gets a new nonce and its signature. */
export function eventHeaders(scheme: Scheme, credentials: Credentials, body: Buffer): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scheme === 'hmac') {
    const nonce = randomBytes(16).toString('hex');
    headers['x-service-nonce'] = nonce;
    headers['x-service-hash'] = createHmac('sha256', credentials.secret).update(`${nonce}:`).update(body).digest('hex');
  } else {
    headers.authorization = scheme === 'basic' ? credentials.basic : credentials.bearer;
  }
  return headers;
}

/** A JWT of an integration allowed to write events, valid for an hour (HS256 with SERVICE_JWT_SECRET). */
export function bearer(jwtSecret: string): string {
  return `Bearer ${jwt.sign({ sub: 'bench-intake', permissions: ['search.write'] }, jwtSecret, { algorithm: 'HS256', expiresIn: 3600 })}`;
}

/** Creates an API key with search:write through POST /secret (Basic) and answers its secret. */
export async function createKey(base: string, basic: string): Promise<string> {
  const res = await fetch(`${base}/secret`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'intake benchmark', permissions: ['search:write'] }),
  });
  const answer = (await res.json()) as { secret?: string };
  if (res.status !== 201 || !answer.secret) {
    throw new Error(`POST /secret answered ${res.status}: ${JSON.stringify(answer)}`);
  }
  return answer.secret;
}
