import type { IncomingMessage } from 'http';

/**
 * The credentials of Algolia's protocols, as its clients send them (query string) or as headers: the Insights protocol
 * (`POST /1/events`, a collector key) and the Analytics API (`GET /2/...`, an analytics key).
 */
export const COLLECTOR_APP_ID = 'X-Algolia-Application-Id';
export const COLLECTOR_API_KEY = 'X-Algolia-API-Key';
export const COLLECTOR_AGENT = 'X-Algolia-Agent';

/** A parameter of Algolia's protocols: from the query string (any case of its name), else the header. */
export function collectorParam(req: IncomingMessage, name: string): string | undefined {
  const lower = name.toLowerCase();
  const query = (req.url ?? '').split('?', 2)[1];
  if (query) {
    for (const [key, value] of new URLSearchParams(query)) {
      if (key.toLowerCase() === lower && value.length > 0) {
        return value;
      }
    }
  }
  const header = req.headers[lower];
  return (Array.isArray(header) ? header[0] : header) || undefined;
}

/**
 * Whether a request carries the service's own credentials (Authorization, or a header of the HMAC scheme), which win
 * over an Algolia key beside them.
 */
export function hasServiceCredentials(req: IncomingMessage): boolean {
  return (
    req.headers.authorization !== undefined || req.headers['x-service-hash'] !== undefined || req.headers['x-service-nonce'] !== undefined
  );
}
