import { LEGACY_SECRET, basicHeader, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';

const FIELDS = ['new', 'sold', 'basket', 'view', 'revenue', 'rating', 'profit_margin'];
const OK = { result: true };
const LOW = 'Low amount of data';
const INVALID = 'Invalid boosting data';
const FLAT = 'No ranking mix data.';
const INSTANCES = Array.from({ length: 20 }, (_, i) => `i${i}`);

describe('PUT /documents and GET /ranking-mix-config/check-data (e2e over HTTP)', () => {
  let t: TestApp;
  let next = 0;
  beforeAll(async () => {
    t = await startApp({ SERVICE_INSTANCES: ['live', ...INSTANCES].join(',') });
  });
  afterAll(() => t.close());

  /** A fresh instance per scenario: the check runs over all documents of one instance. */
  const instance = () => INSTANCES[next++];
  const put = async (inst: string, documents: unknown[]) => {
    const body = JSON.stringify({ documents });
    return http<{ accepted: number; rejected: Array<{ index: number; reason: string }> }>(`${t.url}/documents`, {
      method: 'PUT',
      headers: { ...hmacHeaders(LEGACY_SECRET, body), 'x-service-instance': inst },
      body,
    });
  };
  const check = async (inst: string) => {
    const res = await http<Record<string, unknown>>(`${t.url}/ranking-mix-config/check-data`, {
      headers: { ...basicHeader(), 'x-service-instance': inst },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FIELDS);
    return res.body;
  };
  /** Documents d0..dn-1 with `values[i]` for the field `rating` (undefined = no data) and good data elsewhere. */
  const docs = (values: Array<number | null | undefined>) =>
    values.map((rating, i) => ({
      id: `d${i}`,
      rating,
      new: i % 2,
      sold: i / values.length,
      basket: 0.5 * (i % 2),
      view: i % 2,
      revenue: (i % 3) / 3,
      profit_margin: i % 2,
    }));
  const rating = async (values: Array<number | null | undefined>) => {
    const inst = instance();
    expect((await put(inst, docs(values))).status).toBe(202);
    return (await check(inst)).rating;
  };

  it('reports every field true for good data', async () => {
    const inst = instance();
    await put(inst, docs([0.1, 0.2, 0.9, 1, 0]));
    const body = await check(inst);
    for (const f of FIELDS) {
      expect(body[f]).toEqual(OK);
    }
  });

  it.each([
    ['low alone', [0.2, 0.8, undefined, undefined, null], [LOW]],
    ['invalid alone', [0.2, 1.5, 0.3, 0.1], [INVALID]],
    ['identical alone', [0.4, 0.4, 0.4, 0.4], [FLAT]],
    ['low and invalid', [-1, 0.5, undefined, undefined, undefined], [LOW, INVALID]],
    ['low and identical', [0.3, 0.3, undefined, undefined, undefined], [LOW, FLAT]],
    ['invalid and identical', [2, 2, 2, 2], [INVALID, FLAT]],
    ['all three', [5, undefined, undefined], [LOW, INVALID, FLAT]],
  ])('reports %s in the documented order', async (_name, values, reasons) => {
    expect(await rating(values)).toEqual({ result: false, reasons });
  });

  it('does not report low data at exactly 50 %', async () => {
    expect(await rating([0.1, 0.9, undefined, null])).toEqual(OK);
  });

  it('accepts 0 and 1 as valid values', async () => {
    expect(await rating([0, 1, 0, 1])).toEqual(OK);
  });

  it('reports low data and no ranking data (and no invalid data) for an instance without documents', async () => {
    const body = await check(instance());
    for (const f of FIELDS) {
      expect(body[f]).toEqual({ result: false, reasons: [LOW, FLAT] });
    }
  });

  it('reports no ranking data for a single document', async () => {
    expect(await rating([0.7])).toEqual({ result: false, reasons: [FLAT] });
  });

  it('lets the latest write of an id win and deleted documents not count', async () => {
    const inst = instance();
    await put(inst, docs([0.5, 0.5, 0.5]));
    expect((await check(inst)).rating).toEqual({ result: false, reasons: [FLAT] });
    await put(inst, [{ id: 'd0', rating: 0.9 }]); // replaces d0 whole
    expect((await check(inst)).rating).toEqual(OK);
    await put(inst, [{ id: 'd0', deleted: true }]);
    expect((await check(inst)).rating).toEqual({ result: false, reasons: [FLAT] });
  });

  it('keeps instances apart', async () => {
    const a = instance();
    const b = instance();
    await put(a, docs([0.1, 0.9]));
    await put(b, docs([3, 3]));
    expect((await check(a)).rating).toEqual(OK);
    expect((await check(b)).rating).toEqual({ result: false, reasons: [INVALID, FLAT] });
  });

  it('rejects non-numeric values at intake with a reason and keeps the rest', async () => {
    const inst = instance();
    const res = await put(inst, [
      { id: 'a', rating: 0.5 },
      { id: 'b', rating: 'NaN' },
      { id: 'c', rating: '0.4' },
      { id: 'd', sold: true },
      { rating: 0.1 },
      { id: 'e', rating: 0.2, colour: 'red' },
    ]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: 1,
      rejected: [
        { index: 1, reason: 'rating must be a number or null' },
        { index: 2, reason: 'rating must be a number or null' },
        { index: 3, reason: 'sold must be a number or null' },
        { index: 4, reason: 'id is required (1-500 characters, no spaces)' },
        { index: 5, reason: 'unknown field colour' },
      ],
    });
  });

  it('answers 400 for more than 10,000 documents and needs the permissions', async () => {
    const inst = instance();
    expect(
      (
        await put(
          inst,
          Array.from({ length: 10_001 }, (_, i) => ({ id: `x${i}` })),
        )
      ).status,
    ).toBe(400);
    expect(
      (await http(`${t.url}/ranking-mix-config/check-data`, { headers: jwtHeader({ permissions: ['ranking-mix.read'] }) })).status,
    ).toBe(200);
    expect((await http(`${t.url}/ranking-mix-config/check-data`, { headers: jwtHeader({ permissions: ['search.read'] }) })).status).toBe(
      403,
    );
    expect((await http(`${t.url}/ranking-mix-config/check-data`, { headers: hmacHeaders(LEGACY_SECRET) })).status).toBe(403);
  });
});
