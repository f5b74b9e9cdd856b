import type { IncomingMessage } from 'node:http';
import { COLLECTOR_API_KEY, COLLECTOR_APP_ID, collectorParam } from './algolia-credentials';

const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;

describe('collectorParam', () => {
  it('reads the query string first (any case of the name, decoded), else the header', () => {
    expect(collectorParam(request('/1/events?X-Algolia-Application-Id=demo&x-algolia-api-key=a%2Bb'), COLLECTOR_API_KEY)).toBe('a+b');
    expect(
      collectorParam(request('/1/events?X-Algolia-Application-Id=demo', { 'x-algolia-application-id': 'other' }), COLLECTOR_APP_ID),
    ).toBe('demo');
    expect(collectorParam(request('/1/events', { 'x-algolia-api-key': 'k' }), COLLECTOR_API_KEY)).toBe('k');
    expect(collectorParam(request('/1/events?X-Algolia-API-Key=', {}), COLLECTOR_API_KEY)).toBeUndefined();
    expect(collectorParam(request('/1/events'), COLLECTOR_APP_ID)).toBeUndefined();
  });
});
