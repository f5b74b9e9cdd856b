import { BotDetector } from './bot-detector';
import { validateSearchEvent, type ValidationContext } from './search-event';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const http: ValidationContext = {
  now: NOW,
  retentionDays: 400,
  bots: new BotDetector(),
  source: 'http',
  customer: 'demo',
  instance: 'live',
};
const kafka: ValidationContext = {
  ...http,
  source: 'kafka',
  customer: undefined,
  instance: undefined,
  topic: 't',
  partition: 2,
  offset: 41,
};
const good = { phrase: '  Blue   HAT ', language: 'en', hits: 3 };

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('BotDetector', () => {
  const bots = new BotDetector();
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'],
    ['curl/8.5.0'],
    ['python-requests/2.31.0'],
  ])('detects the crawler %p', (ua) => expect(bots.isBot(undefined, ua)).toBe(true));

  it.each([[CHROME], [SAFARI]])('lets the browser %p through', (ua) => expect(bots.isBot(undefined, ua)).toBe(false));

  it('lets an explicit flag win over the user agent', () => {
    expect(bots.isBot(false, 'Googlebot/2.1')).toBe(false);
    expect(bots.isBot(true, CHROME)).toBe(true);
    expect(bots.isBot(undefined, undefined)).toBe(false);
  });
});

describe('validateSearchEvent', () => {
  it('normalises the phrase, keeps the raw one and fills the receive time', () => {
    const r = validateSearchEvent(good, http, http);
    expect(r).toMatchObject({
      ok: true,
      row: {
        phrase: 'blue hat',
        raw_phrase: '  Blue   HAT ',
        language: 'en',
        hits: 3,
        bot: false,
        customer: 'demo',
        instance: 'live',
        ts: '2026-11-21 12:00:00.000',
        source: 'http',
      },
    });
  });

  it('stores the session id only as a hash and not the user agent', () => {
    const r = validateSearchEvent({ ...good, sessionId: 'sess-1', userAgent: 'Googlebot/2.1' }, http, http);
    if (!r.ok) {
      throw new Error(r.reason);
    }
    expect(r.row.session_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(r.row)).not.toContain('sess-1');
    expect(JSON.stringify(r.row)).not.toContain('Googlebot');
    expect(r.row.bot).toBe(true);
  });

  it('requires customer and instance on Kafka and keeps topic, partition and offset', () => {
    expect(validateSearchEvent(good, kafka, kafka)).toEqual({ ok: false, reason: 'customer is required (a lower-case name)' });
    const r = validateSearchEvent({ ...good, customer: 'shop1', instance: 'live' }, kafka, kafka);
    expect(r).toMatchObject({
      ok: true,
      row: { customer: 'shop1', instance: 'live', topic: 't', partition: 2, offset: 41, source: 'kafka' },
    });
  });

  it.each([
    [null, 'event must be a JSON object'],
    [[1], 'event must be a JSON object'],
    [{ ...good, phrase: undefined }, 'phrase is required (a string)'],
    [{ ...good, phrase: '   ' }, 'phrase is empty'],
    [{ ...good, phrase: 'x'.repeat(10_240) }, 'phrase is longer than 500 characters'],
    [{ ...good, hits: -1 }, 'hits must be an integer >= 0'],
    [{ ...good, hits: 1.5 }, 'hits must be an integer >= 0'],
    [{ ...good, hits: '3' }, 'hits must be an integer >= 0'],
    [{ ...good, language: 'de_DE' }, 'language is required (letters and -, e.g. de or de-ch)'],
    [{ ...good, ts: NOW + 60 * 60 * 1000 }, 'ts is more than 5 minutes in the future'],
    [{ ...good, ts: '2020-01-01T00:00:00Z' }, 'ts is older than the retention of 400 days'],
    [{ ...good, ts: 'yesterday' }, 'ts must be an ISO-8601 string or epoch milliseconds'],
    [{ ...good, id: 'abc' }, 'id must be a UUID (with or without dashes)'],
    [{ ...good, id: 7 }, 'id must be a UUID (with or without dashes)'],
    [{ ...good, id: '0190c7a45e4f7b6a9c3d2f1e0d9c8b7' }, 'id must be a UUID (with or without dashes)'],
    [{ ...good, bot: 'yes' }, 'bot must be a boolean'],
    [{ ...good, customer: 'other' }, 'customer does not match the authenticated customer'],
    [{ ...good, instance: 'stage' }, 'instance does not match the authenticated instance'],
    [{ ...good, hit: 3 }, 'unknown field hit'],
  ])('rejects %p with %p', (input, reason) => {
    expect(validateSearchEvent(input, http, http)).toEqual({ ok: false, reason });
  });

  it.each([
    ['0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a'],
    ['0190C7A4-5E4F-7B6A-9C3D-2F1E0D9C8B7A'],
    ['0190c7a45e4f7b6a9c3d2f1e0d9c8b7a'],
    ['0190C7A45E4F7B6A9C3D2F1E0D9C8B7A'],
  ])('stores the id %p in its canonical form, lower-case with dashes', (id) => {
    expect(validateSearchEvent({ ...good, id }, http, http)).toMatchObject({
      ok: true,
      row: { event_id: '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a' },
    });
  });

  it('generates an id for an event without one', () => {
    const r = validateSearchEvent(good, http, http);
    expect(r.ok && r.row.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('accepts ts as ISO-8601 and as epoch milliseconds, 500-character phrases and hits = 0', () => {
    expect(validateSearchEvent({ ...good, ts: '2026-11-21T11:30:00.250+00:00' }, http, http)).toMatchObject({
      ok: true,
      row: { ts: '2026-11-21 11:30:00.250' },
    });
    expect(validateSearchEvent({ ...good, ts: NOW - 1000 }, http, http)).toMatchObject({
      ok: true,
      row: { ts: '2026-11-21 11:59:59.000' },
    });
    expect(validateSearchEvent({ ...good, ts: NOW + 4 * 60 * 1000 }, http, http).ok).toBe(true);
    expect(validateSearchEvent({ ...good, phrase: 'ä'.repeat(500) }, http, http).ok).toBe(true);
    expect(validateSearchEvent({ ...good, hits: 0 }, http, http).ok).toBe(true);
  });
});
