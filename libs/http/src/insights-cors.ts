import type { FastifyReply } from 'fastify';
import { COLLECTOR_AGENT, COLLECTOR_API_KEY, COLLECTOR_APP_ID } from '@app/auth';

/** The counts of a POST /1/events answer (its body is Algolia's EventsResponse, which has no room for them). */
export const EVENTS_ACCEPTED_HEADER = 'X-Events-Accepted';
export const EVENTS_REJECTED_HEADER = 'X-Events-Rejected';

/** How long a browser may reuse a preflight: short, since a key's origins can change by revoking it. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * The CORS grant of a POST /1/events answer to `origin` (the request's Origin, which the collector key allows): the
 * answer's counts and Retry-After readable by the page. Nothing without an Origin (a server, sendBeacon's
 * same-origin case).
 */
export function grantCors(reply: FastifyReply, origin: string | undefined): void {
  reply.header('Vary', 'Origin');
  if (origin === undefined) {
    return;
  }
  reply.header('Access-Control-Allow-Origin', origin);
  reply.header('Access-Control-Expose-Headers', [EVENTS_ACCEPTED_HEADER, EVENTS_REJECTED_HEADER, 'Retry-After'].join(', '));
}

/**
 * The answer to a preflight of POST /1/events: 204, granted to `origin` when `allowed` (the key named in the query
 * string lists it, or no key could be named: the POST decides), else without any grant (the browser then sends
 * nothing).
 */
export function answerPreflight(reply: FastifyReply, origin: string | undefined, allowed: boolean): void {
  reply.header('Vary', 'Origin');
  if (origin !== undefined && allowed) {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Methods', 'POST');
    reply.header('Access-Control-Allow-Headers', ['Content-Type', COLLECTOR_APP_ID, COLLECTOR_API_KEY, COLLECTOR_AGENT].join(', '));
    reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
  }
  reply.code(204).header('Content-Length', '0').send();
}
