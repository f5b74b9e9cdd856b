/**
 * Calling the service from TypeScript with the types generated from its OpenAPI document (./api.d.ts, written by
 * `npm run client`). It needs Node 18 or later and nothing else: node:crypto signs, the global fetch sends.
 * test/client-example.spec.ts compiles it against freshly generated types and runs it against the service.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { paths } from './api';

/** Where requests go and which API key signs them (its secret is shown once, in the answer of POST /secret). */
export interface Service {
  /** e.g. http://localhost:3000 */
  baseUrl: string;
  secret: string;
  /** X-Service-Instance; without it, the customer's first instance. */
  instance?: string;
}

type ListSearchTerms = paths['/search-terms']['get'];
export type SearchTermsQuery = NonNullable<ListSearchTerms['parameters']['query']>;
export type SearchTermPage = ListSearchTerms['responses'][200]['content']['application/json'];

type SubmitEvents = paths['/events']['post'];
export type EventsBody = SubmitEvents['requestBody']['content']['application/json'];
export type EventsAnswer = SubmitEvents['responses'][202]['content']['application/json'];

/**
 * The headers of a signed request. The nonce is 16 random bytes as 32 lowercase hex characters, new for every
 * request; the hash is the hex HMAC-SHA256 of nonce + ':' + body, keyed with the API key's secret, where body is
 * the exact text sent (an empty string when there is none).
 */
export function signedHeaders(service: Service, body = ''): Record<string, string> {
  const nonce = randomBytes(16).toString('hex');
  const hash = createHmac('sha256', service.secret).update(`${nonce}:${body}`).digest('hex');
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Service-Nonce': nonce, 'X-Service-Hash': hash };
  if (service.instance !== undefined) {
    headers['X-Service-Instance'] = service.instance;
  }
  return headers;
}

/** Sends one signed request; an answer other than 2xx throws with its status and body. */
async function send(service: Service, method: string, pathAndQuery: string, body?: string): Promise<Response> {
  const res = await fetch(`${service.baseUrl}${pathAndQuery}`, { method, headers: signedHeaders(service, body), body });
  if (!res.ok) {
    throw new Error(`${method} ${pathAndQuery} answered ${res.status}: ${await res.text()}`);
  }
  return res;
}

/** GET /search-terms (permission search:read): one page of terms, and X-Total-Count, the number over all pages. */
export async function listSearchTerms(service: Service, query: SearchTermsQuery = {}): Promise<{ terms: SearchTermPage; total: number }> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) {
      params.set(name, String(value));
    }
  }
  const res = await send(service, 'GET', `/search-terms?${params.toString()}`);
  return { terms: (await res.json()) as SearchTermPage, total: Number(res.headers.get('X-Total-Count')) };
}

/** POST /events (permission search:write): up to 10,000 events; the answer counts the accepted ones and lists the rejected ones. */
export async function submitEvents(service: Service, body: EventsBody): Promise<EventsAnswer> {
  const text = JSON.stringify(body); // signed and sent as this exact text
  const res = await send(service, 'POST', '/events', text);
  return (await res.json()) as EventsAnswer;
}

/** Both together: records one search, then prints the week's most searched terms. */
export async function demo(service: Service): Promise<void> {
  const answer = await submitEvents(service, { events: [{ phrase: 'Blue Hat', language: 'de', hits: 3 }] });
  for (const { index, reason } of answer.rejected) {
    console.log(`event ${index} rejected: ${reason}`);
  }
  const { terms, total } = await listSearchTerms(service, { since: '7d', _end: 10 });
  for (const term of terms) {
    console.log(`${term.count}\t${term.search_phrase}`);
  }
  console.log(`${terms.length} of ${total} terms`);
}
