import { basicHeader, http, startApp, type HttpResult, type TestApp } from './support/test-app';

interface Annotation {
  id: string;
  ts: string;
  text: string;
  createdAt: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('annotations: POST, GET and DELETE /annotations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const as = (instance: string) => ({ ...basicHeader(), 'x-service-instance': instance });
  /** POST /annotations with the body exactly as given (a string is sent as it is: lone surrogates stay escaped). */
  const create = (body: unknown, instance = 'live') =>
    http<Annotation & { message?: string | string[] }>(`${t.url}/annotations`, {
      method: 'POST',
      headers: { ...as(instance), 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const list = (query: string, instance = 'live') => http<Annotation[]>(`${t.url}/annotations?${query}`, { headers: as(instance) });
  const remove = (id: string, instance = 'live') =>
    http<{ ok?: boolean; message?: string }>(`${t.url}/annotations/${id}`, { method: 'DELETE', headers: as(instance) });
  const texts = (res: HttpResult<Annotation[]>) => res.body.map((a) => a.text);
  /**
   * Whole-hour ISO times (the window's bounds are whole hours): `hours` from the start of the hour the file began in
   * (one base for all, so that an hour that ends during the run moves no annotation against another).
   */
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const hourFromNow = (hours: number) => new Date(base + hours * HOUR).toISOString();

  it('creates one (ts defaults to now), lists it and deletes it', async () => {
    const before = Date.now();
    const made = await create({ text: 'Winter campaign started' });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body).sort()).toEqual(['createdAt', 'id', 'text', 'ts']);
    expect(made.body.text).toBe('Winter campaign started');
    expect(made.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const time of [made.body.ts, made.body.createdAt]) {
      expect(Date.parse(time)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(time)).toBeLessThanOrEqual(Date.now());
    }
    const listed = await list('since=1d&_end=1000');
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(made.body);

    expect(await remove(made.body.id)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await list('since=1d&_end=1000')).body.map((a) => a.id)).not.toContain(made.body.id);
    // Deleted: gone for a second delete too.
    expect((await remove(made.body.id)).status).toBe(404);
  });

  it.each([
    ['2026-01-15T10:30:00+02:00', '2026-01-15T08:30:00.000Z'],
    ['2026-01-15T10:30+0200', '2026-01-15T08:30:00.000Z'],
    ['2026-01-15T08:30:00.123456789Z', '2026-01-15T08:30:00.123Z'],
  ])('reads ts %s as a moment, answered in UTC', async (ts, expected) => {
    const made = await create({ ts, text: 'Price change' });
    expect(made.status).toBe(201);
    expect(made.body.ts).toBe(expected);
    expect((await remove(made.body.id)).status).toBe(200);
  });

  describe('the window', () => {
    const made: Record<string, Annotation> = {};
    beforeAll(async () => {
      // Created out of order, so that the list's order is its own.
      for (const [text, hours] of [
        ['two days ago', -48],
        ['this hour', 0],
        ['five days ago', -120],
        ['two hours ago', -2],
        ['ten days ago', -240],
      ] as const) {
        const res = await create({ ts: hourFromNow(hours), text: `window: ${text}` }, 'stage');
        expect(res.status).toBe(201);
        made[text] = res.body;
      }
    });

    it('since: those of the last days through the current hour, oldest first, with X-Total-Count', async () => {
      const day = await list('since=1d', 'stage');
      expect(texts(day)).toEqual(['window: two hours ago', 'window: this hour']);
      expect(day.headers['x-total-count']).toBe('2');
      const week = await list('since=7d', 'stage');
      expect(texts(week)).toEqual(['window: five days ago', 'window: two days ago', 'window: two hours ago', 'window: this hour']);
      expect(week.headers['x-total-count']).toBe('4');
      // The default window is the analytics' one: since=1d.
      expect(texts(await list('', 'stage'))).toEqual(texts(day));
    });

    it('from (inclusive) and to (exclusive)', async () => {
      const res = await list(`from=${hourFromNow(-120)}&to=${hourFromNow(-2)}`, 'stage');
      expect(texts(res)).toEqual(['window: five days ago', 'window: two days ago']);
      expect(res.headers['x-total-count']).toBe('2');
      // Dates: whole days in tz.
      const day = Date.parse(hourFromNow(-240).slice(0, 10));
      const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const zoned = await list(`from=${date(day)}&to=${date(day + DAY)}&tz=UTC`, 'stage');
      expect(texts(zoned)).toEqual(['window: ten days ago']);
    });

    it('pages with _start and _end; X-Total-Count counts the whole window', async () => {
      const page = await list('since=30d&_start=1&_end=3', 'stage');
      expect(texts(page)).toEqual(['window: five days ago', 'window: two days ago']);
      expect(page.headers['x-total-count']).toBe('5');
      const past = await list('since=30d&_start=10&_end=20', 'stage');
      expect([past.body, past.headers['x-total-count']]).toEqual([[], '5']);
    });

    it('answers 400 for the window parameters as the analytics endpoints do', async () => {
      for (const query of [
        'since=0d',
        'since=401d',
        'from=2026-01-01',
        'from=yesterday&to=today',
        'tz=Mars/Olympus',
        'since=1d&from=2026-01-01',
      ]) {
        expect([query, (await list(query, 'stage')).status]).toEqual([query, 400]);
      }
      expect((await list('since=1d&_end=1001', 'stage')).status).toBe(400);
    });

    it('keeps each instance apart: another instance neither lists nor deletes them', async () => {
      expect(texts(await list('since=30d&_end=1000', 'live'))).not.toContain('window: this hour');
      expect((await remove(made['this hour'].id, 'live')).status).toBe(404);
      expect(texts(await list('since=1d', 'stage'))).toContain('window: this hour');
    });
  });

  describe('bad input', () => {
    const messageOf = (res: HttpResult<{ message?: string | string[] }>) => [res.body.message ?? ''].flat().join('; ');

    it.each([
      ['empty', JSON.stringify({ text: '' }), 'text must be 1-200 characters'],
      ['201 characters', JSON.stringify({ text: 'x'.repeat(201) }), 'text must be 1-200 characters'],
      ['a lone surrogate', '{"text":"before \\ud800 after"}', 'text is not well-formed Unicode'],
      ['a NUL', JSON.stringify({ text: 'a\u0000b' }), 'text contains a NUL character'],
      ['blanks only', JSON.stringify({ text: ' \t\n ' }), 'text must not be blank'],
      ['no text', JSON.stringify({ ts: '2026-01-15T10:00:00Z' }), 'text must be'],
      ['a number', JSON.stringify({ text: 5 }), 'text must be a string'],
    ])('answers 400 naming text for %s', async (_name, body, message) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(messageOf(res)).toContain(message);
    });

    it('counts characters, not UTF-16 units: 200 emoji are allowed', async () => {
      const res = await create({ text: '🎉'.repeat(200) });
      expect(res.status).toBe(201);
      expect(res.body.text).toBe('🎉'.repeat(200));
      expect((await remove(res.body.id)).status).toBe(200);
    });

    it.each([
      ['not a date', 'yesterday', 'ts must be a date-time'],
      ['without an offset', '2026-01-15T10:00:00', 'ts must be a date-time'],
      ['a date only', '2026-01-15', 'ts must be a date-time'],
      ['a day that does not exist', '2026-02-30T10:00:00Z', 'ts is not a valid date-time'],
      ['before 2000', '1999-12-31T23:59:59Z', 'ts must not be before 2000-01-01T00:00:00Z'],
      ['more than a day ahead', new Date(Date.now() + DAY + HOUR).toISOString(), 'ts must be at most 24 hours after now'],
      ['a number', 1_700_000_000_000, 'ts must be a date-time'],
    ])('answers 400 naming ts for %s', async (_name, ts, message) => {
      const res = await create({ ts, text: 'bad time' });
      expect(res.status).toBe(400);
      expect(messageOf(res)).toContain(message);
    });

    it('takes a ts up to a day ahead, and from 2000 on', async () => {
      for (const ts of [new Date(Date.now() + DAY - HOUR).toISOString(), '2000-01-01T00:00:00.000Z']) {
        const res = await create({ ts, text: 'edge' });
        expect([ts, res.status]).toEqual([ts, 201]);
        expect((await remove(res.body.id)).status).toBe(200);
      }
    });

    it('DELETE takes the id in upper case too', async () => {
      const res = await create({ text: 'upper' });
      expect((await remove(res.body.id.toUpperCase())).status).toBe(200);
      expect((await remove(res.body.id)).status).toBe(404);
    });

    it('answers 400 for an unknown field', async () => {
      expect((await create({ text: 'x', colour: 'red' })).status).toBe(400);
    });

    it('DELETE: 404 for an unknown id, 400 for one that is not a UUID', async () => {
      const unknown = await remove('00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      const malformed = await remove('not-a-uuid');
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toContain('id must be the UUID of an annotation');
    });
  });
});
