import { basicHeader, http, type HttpResult } from './test-app';

/**
 * The request function search-insights uses in Node with native fetch (its requestWithNativeFetch, which the package
 * does not export): its own node:http requester passes `host:port` as the host name, so it reaches no port but 80/443.
 */
export const fetchRequester = (url: string, data: Record<string, unknown>): Promise<boolean> =>
  fetch(url, { method: 'POST', body: JSON.stringify(data), headers: { 'Content-Type': 'application/json' } }).then((r) => r.status === 200);

/** POST /secret with the collector preset (and `body`'s fields), as `headers` (Basic by default). */
export async function createCollectorKey(
  url: string,
  body: Record<string, unknown> = {},
  headers = basicHeader(),
): Promise<HttpResult<Record<string, unknown>>> {
  return http<Record<string, unknown>>(`${url}/secret`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'storefront', preset: 'collector', ...body }),
  });
}
