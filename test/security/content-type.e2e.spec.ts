import { basicHeader, hmacHeaders, http, LEGACY_SECRET, startApp, type TestApp } from '../support/test-app';
import { storedCounts } from '../support/storage';

/** A body is JSON only when it says so: without a Content-Type it is 415, decided before the body is read. */
describe('a body without Content-Type', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const body = JSON.stringify({ events: [{ phrase: 'no type', language: 'en', hits: 1 }] });

  it.each([
    ['signed', () => ({ ...hmacHeaders(LEGACY_SECRET, body), 'content-type': '' })],
    ['with Basic', () => basicHeader()],
  ])('is refused 415 naming the header when %s, and nothing is stored', async (_name, headers) => {
    const before = await storedCounts(t);
    const sent = Object.fromEntries(Object.entries(headers()).filter(([, v]) => v !== ''));
    const res = await http<{ message: string }>(`${t.url}/events`, { method: 'POST', headers: sent, body });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('A request body needs Content-Type: application/json');
    expect(await storedCounts(t)).toEqual(before);
  });

  it('is refused 415 with another type, and accepted as application/json', async () => {
    const plain = await http(`${t.url}/events`, { method: 'POST', headers: { ...basicHeader(), 'content-type': 'text/plain' }, body });
    expect(plain.status).toBe(415);
    const json = await http(`${t.url}/events`, { method: 'POST', headers: { ...basicHeader(), 'content-type': 'application/json' }, body });
    expect(json.status).toBe(202);
  });
});
