/// <reference lib="dom" />
// page.evaluate callbacks run in the page: DOM types for those callbacks.
import type { Browser, Page } from 'puppeteer-core';
import { describeBrowser, launchBrowser, watchErrors } from '../support/browser';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, jwtHeader, nonce, startApp, type TestApp } from '../support/test-app';
import { freshDir, startService, type Service } from '../support/processes';
import { storedCounts } from '../support/storage';

const DAY_S = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);

/** Attacks on small holes found by a security review, each against the in-process app over real HTTP. */
describe('small security holes (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('CSV formula injection', () => {
    // Phrases a spreadsheet would run as formulas; normalising keeps their first character (a leading tab or CR is
    // trimmed, so "\t=x" arrives as "=x").
    const phrases = ['=hyperlink("http://evil.example","x")', '+1+2', '-2+3', '@sum(1,2)', '\t=tab', 'plain shoes', 'a=b'];

    it('stores the signed events exactly once, even when the request is replayed', async () => {
      const before = await storedCounts(t);
      const body = JSON.stringify({ events: phrases.map((phrase) => ({ phrase, language: 'fx', hits: 0 })) });
      const headers = hmacHeaders(LEGACY_SECRET, body, nonce());
      const sent = await http<{ accepted: number; rejected: unknown[] }>(`${t.url}/events`, { method: 'POST', headers, body });
      expect(sent.status).toBe(202);
      expect(sent.body).toEqual({ accepted: phrases.length, rejected: [] });
      const replayed = await http(`${t.url}/events`, { method: 'POST', headers, body });
      expect(replayed.status).toBe(401);
      const after = await storedCounts(t);
      expect(after.events - before.events).toBe(phrases.length);
      expect(after.rollup - before.rollup).toBe(phrases.length);
    });

    it("prefixes every text cell starting with = + - @ with ' in the CSV, and leaves JSON as stored", async () => {
      const csv = await http<string>(`${t.url}/search-terms?language=fx&hits=false&format=csv`, { headers: basicHeader() });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body.split('\r\n');
      expect(lines[0]).toBe('search_phrase,count,handled,handlers');
      expect(lines.slice(1).sort()).toEqual(
        [
          '"\'=hyperlink(""http://evil.example"",""x"")",1,false,',
          "'+1+2,1,false,",
          "'-2+3,1,false,",
          '"\'@sum(1,2)",1,false,',
          "'=tab,1,false,",
          'plain shoes,1,false,',
          'a=b,1,false,',
          '',
        ].sort(),
      );
      const json = await http<Array<{ search_phrase: string }>>(`${t.url}/search-terms?language=fx&hits=false&_end=100`, {
        headers: basicHeader(),
      });
      expect(json.body.map((x) => x.search_phrase).sort()).toEqual(
        ['=hyperlink("http://evil.example","x")', '+1+2', '-2+3', '@sum(1,2)', '=tab', 'plain shoes', 'a=b'].sort(),
      );
    });
  });

  describe('JWT lifetime (JWT_MAX_LIFETIME_S, 30 days by default)', () => {
    const terms = (headers: Record<string, string>) => http<{ message: string }>(`${t.url}/search-terms`, { headers });
    const reader = { permissions: ['search.read'] };
    const RULE = /lifetime .* over .*JWT_MAX_LIFETIME_S/;

    it('accepts a token that lives 30 days or less', async () => {
      expect((await terms(jwtHeader(reader, { expiresIn: 30 * DAY_S }))).status).toBe(200);
      expect((await terms(jwtHeader(reader, { expiresIn: 29 * DAY_S, noTimestamp: true }))).status).toBe(200);
    });

    it('refuses a longer exp - iat with 401 naming the rule', async () => {
      const res = await terms(jwtHeader(reader, { expiresIn: 30 * DAY_S + 60 }));
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(RULE);
    });

    it('refuses a longer exp - now when the token has no iat', async () => {
      const res = await terms(jwtHeader(reader, { expiresIn: 365 * DAY_S, noTimestamp: true }));
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(RULE);
    });

    it('refuses a token whose iat lies in the future to make exp - iat look short', async () => {
      const res = await terms(jwtHeader({ ...reader, iat: nowS() + 364 * DAY_S, exp: nowS() + 365 * DAY_S }, {}));
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(RULE);
    });

    it('names the other rule for a token that fails another one', async () => {
      const res = await terms(jwtHeader(reader, { expiresIn: 300 }, 'another-secret-0123456789abcdef'));
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("JWT badly signed: its signature does not verify with the service's JWT key and algorithm");
    });

    it('accepts any lifetime with JWT_MAX_LIFETIME_S=0', async () => {
      const unlimited = await startApp({ JWT_MAX_LIFETIME_S: '0' });
      try {
        const res = await http(`${unlimited.url}/search-terms`, { headers: jwtHeader(reader, { expiresIn: 3650 * DAY_S }) });
        expect(res.status).toBe(200);
      } finally {
        await unlimited.close();
      }
    });
  });

  describe('entity data with prototype keys', () => {
    type Answer = { message: string | string[] };
    // Sent as text: JSON.stringify would drop nothing, but an object literal's __proto__ would not be a key.
    const put = (path: string, body: string) =>
      http<Answer>(`${t.url}/entities/${path}`, { method: 'PUT', headers: { ...basicHeader(), 'content-type': 'application/json' }, body });
    const read = (path: string) => http(`${t.url}/entities/${path}`, { headers: basicHeader() });
    const named = (res: { body: Answer }) => [res.body.message].flat().join(' | ');

    it.each([
      ['__proto__', '{"data":{"__proto__":{"isAdmin":true}}}'],
      ['constructor', '{"data":{"title":"x","constructor":{"prototype":{"isAdmin":true}}}}'],
      ['prototype', '{"data":{"blocks":[{"text":"a"},{"nested":{"prototype":1}}]}}'],
      ['__proto__', '{"data":{"deep":{"deeper":{"__proto__":{"polluted":1}}}}}'],
    ])('refuses PUT /entities/:type/:id with a %s key with 400 naming it, and stores nothing', async (key, body) => {
      const res = await put('banner/proto-one', body);
      expect(res.status).toBe(400);
      expect(named(res)).toContain(key);
      expect((await read('banner/proto-one')).status).toBe(404);
    });

    it('refuses the bulk PUT /entities/:type when one item holds such a key, and stores none of them', async () => {
      const body = '{"items":[{"id":"bulk-ok","data":{"a":1}},{"id":"bulk-bad","data":{"list":[{"__proto__":{"x":1}}]}}]}';
      const res = await put('banner', body);
      expect(res.status).toBe(400);
      expect(named(res)).toContain('__proto__');
      expect(named(res)).toContain('items.1');
      expect((await read('banner/bulk-ok')).status).toBe(404);
    });

    it('keeps data whose keys only resemble them, and such values', async () => {
      const data = { proto: 1, __proto: 2, constructors: [3], title: '__proto__', nested: { value: 'constructor' } };
      const res = await put('banner/proto-like', JSON.stringify({ data }));
      expect(res.status).toBe(201);
      expect((await read('banner/proto-like')).body).toMatchObject({ data });
    });
  });

  describe('security headers', () => {
    const get = (path: string, headers: Record<string, string> = {}) => http<unknown>(`${t.url}${path}`, { headers });

    it.each([
      ['/health', 200, {}],
      ['/search-terms', 401, {}],
      ['/no-such-route', 404, {}],
      ['/entities/banner/no-such-id', 404, basicHeader()],
      ['/search-terms?since=nonsense', 400, basicHeader()],
      ['/search-terms?format=csv', 200, basicHeader()],
      ['/docs-json', 200, {}],
    ])('sends X-Content-Type-Options: nosniff on GET %s (%s)', async (path, status, headers) => {
      const res = await get(path, headers);
      expect(res.status).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('sends nosniff on the answers of the URL router and the body parser too', async () => {
      const malformed = await fetch(`${t.url}/%zz`);
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('x-content-type-options')).toBe('nosniff');
      const body = '{"events":';
      const invalid = await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
      expect(invalid.status).toBe(400);
      expect(invalid.headers['x-content-type-options']).toBe('nosniff');
    });

    it.each(['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css', '/dashboard', '/dashboard/no-such-file.js'])(
      'sends a strict Content-Security-Policy and X-Frame-Options: DENY on %s',
      async (path) => {
        const res = await get(path);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toMatch(/^default-src 'none'; /);
        expect(csp).toMatch(/script-src 'self';/);
        expect(csp).toMatch(/frame-ancestors 'none'/);
        expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      },
    );

    it('leaves the API answers without a page policy', async () => {
      const res = await get('/health');
      expect(res.headers['content-security-policy']).toBeUndefined();
    });
  });
});

describe('the access log of a real process (stdout)', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService('apps/standalone/src/main.js', {
      DATA_DIR: freshDir('small-holes-log'),
      SERVICE_BASIC_AUTH: 'ops:log-test-password-42',
      LOG_LEVEL: 'info',
    });
  });
  afterAll(() => service.stop());

  it('writes the URL with the values of token, key, signature and password replaced, the rest kept', async () => {
    const secrets = ['tok3n-abcdef0123456789', 'k3y-value-42', 'sig-0a1b2c3d', 'pa55-word'];
    const query =
      `token=${secrets[0]}&since=1d&Key=${secrets[1]}&signature=${secrets[2]}` +
      `&password=${secrets[3]}&keyword=kept&%74oken=${secrets[0]}&token[]=${secrets[0]}&empty=`;
    const res = await http(`${service.url}/health?${query}`, { headers: { 'x-request-id': 'redact-1' } });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const records = service
      .stdout()
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as { req?: { id?: string; url?: string }; res?: { statusCode: number } });
    const line = records.find((r) => r.req?.id === 'redact-1' && r.res);
    expect(line?.req?.url).toBe(
      '/health?token=[redacted]&since=1d&Key=[redacted]&signature=[redacted]&password=[redacted]&keyword=kept' +
        '&%74oken=[redacted]&token[]=[redacted]&empty=',
    );
    for (const secret of secrets) {
      expect(service.stdout() + service.stderr()).not.toContain(secret);
    }
  });
});

describeBrowser('the pages under their Content-Security-Policy, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  const pages: Page[] = [];
  beforeAll(async () => {
    [t, browser] = await Promise.all([startApp(), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  afterEach(() => Promise.all(pages.splice(0).map((p) => p.close())));

  /** A new tab at `path`, collecting every console error and every report of the policy (logged or not). */
  async function open(path: string) {
    const page = await browser.newPage();
    pages.push(page);
    const errors = watchErrors(page);
    await page.evaluateOnNewDocument(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
    });
    const response = await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle0' });
    return {
      page,
      errors,
      policy: response?.headers()['content-security-policy'],
      violations: () => page.evaluate(() => (window as unknown as { violations: string[] }).violations),
      /** Whether an inline script added to the page runs (it must not: the policy allows only the site's own files). */
      inlineScriptRuns: () =>
        page.evaluate(() => {
          const script = document.createElement('script');
          script.textContent = 'window.injected = true';
          document.head.append(script);
          return (window as unknown as { injected?: boolean }).injected === true;
        }),
    };
  }

  it.each(['/docs', '/docs/'])('renders Swagger UI at %s with every script and style it needs allowed', async (path) => {
    const { page, errors, policy, violations, inlineScriptRuns } = await open(path);
    expect(policy).toBeDefined();
    await page.waitForSelector('.swagger-ui .info .title');
    expect(await page.$eval('.swagger-ui .info .title', (el) => el.textContent)).toContain('Search analytics');
    // The inline styles of the page apply (the hidden sprite sheet takes no room; the body has its background).
    expect(await page.$eval('body > svg', (el) => getComputedStyle(el).position)).toBe('absolute');
    expect(await page.$eval('body', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(250, 250, 250)');
    expect(await page.$eval('.swagger-ui .topbar .download-url-wrapper', (el) => getComputedStyle(el).display)).toBe('none');
    await page.click('.opblock-summary');
    await page.waitForSelector('.opblock-body');
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    expect(await inlineScriptRuns()).toBe(false);
  });

  it('keeps the dashboard working and blocks an inline script on it', async () => {
    const { page, errors, violations, inlineScriptRuns } = await open('/dashboard');
    await page.waitForSelector('#login');
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    expect(await inlineScriptRuns()).toBe(false);
  });
});
