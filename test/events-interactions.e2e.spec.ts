import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { NO_SEARCH_ID, validateInteraction, type InteractionRow } from '@app/contracts';
import { DataVersions, IntakeService, type InteractionSource } from '@app/intake';
import { LEGACY_SECRET, createKey, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { onStoredTables, storedCounts } from './support/storage';

type Answer = { accepted: number; rejected: Array<{ index: number; reason: string }>; message?: string };

/** Clicks and conversions as items of POST /events, beside search events, on the embedded transport. */
describe('POST /events with clicks and conversions (embedded transport, e2e over HTTP)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
    ch = t.app.get(ClickHouseService);
  });
  afterAll(() => t.close());

  const send = (events: unknown[], secret = LEGACY_SECRET) => {
    const body = JSON.stringify({ events });
    return http<Answer>(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(secret, body), body });
  };
  const interactions = (objectPrefix: string) =>
    ch.query<Record<string, unknown>>(
      `SELECT toString(interaction_id) AS id, type, toString(search_id) AS search_id, object_id, object_index, position, subtype,
              toFloat64(value) AS value, currency, origin, source, customer, instance, toBool(user_token_hash != '') AS hashed,
              toBool(intake_token != '') AS has_token
       FROM ${ch.table('interactions')} WHERE startsWith(object_id, {p:String}) ORDER BY object_id`,
      { p: objectPrefix },
    );
  const interactionCount = async (objectPrefix: string) => (await interactions(objectPrefix)).length;
  const rejectedRows = (marker: string) =>
    ch.query<{ kind: string; reason: string; item_index: number }>(
      `SELECT kind, reason, item_index FROM ${ch.table('rejected_events')} WHERE position(raw, {m:String}) > 0 ORDER BY item_index`,
      { m: marker },
    );

  it('stores search events and interactions of one request in their tables, answering over the whole request', async () => {
    const searchId = randomUUID();
    const before = await storedCounts(t);
    const res = await send([
      { id: searchId, phrase: 'mixed hat', language: 'en', hits: 4 },
      { type: 'click', searchId: searchId.replaceAll('-', '').toUpperCase(), objectId: 'mixed-1', position: 2, userToken: 'u-1' },
      { type: 'search', phrase: 'mixed shoes', language: 'en', hits: 0 },
      { type: 'conversion', searchId, objectId: 'mixed-2', subtype: 'purchase', value: 19.99, currency: 'eur' },
      { type: 'click', objectId: 'mixed-bad', position: 1 },
      { type: 'conversion', objectId: 'mixed-3' },
    ]);
    expect([res.status, res.body]).toEqual([
      202,
      { accepted: 5, rejected: [{ index: 4, reason: 'searchId is required for a click (the id of the search)' }] },
    ]);
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(2);
    const rows = await interactions('mixed-');
    expect(rows).toEqual([
      expect.objectContaining({
        type: 'click',
        search_id: searchId,
        object_id: 'mixed-1',
        object_index: 0,
        position: 2,
        subtype: '',
        value: 0,
        currency: '',
        origin: 'events',
        source: 'http',
        customer: 'demo',
        instance: 'live',
        hashed: true,
        has_token: false,
      }),
      expect.objectContaining({
        type: 'conversion',
        search_id: searchId,
        object_id: 'mixed-2',
        position: 0,
        subtype: 'purchase',
        value: 19.99,
        currency: 'EUR',
      }),
      expect.objectContaining({ type: 'conversion', search_id: NO_SEARCH_ID, object_id: 'mixed-3', hashed: false }),
    ]);
    const sent = await ch.query<{ phrase: string; id_sent: boolean; id: string }>(
      `SELECT phrase, id_sent, toString(event_id) AS id FROM ${ch.table('search_events')}
       WHERE startsWith(phrase, 'mixed ') ORDER BY phrase`,
    );
    expect(sent.map((r) => [r.phrase, r.id_sent])).toEqual([
      ['mixed hat', true],
      ['mixed shoes', false],
    ]);
    expect(sent[0].id).toBe(searchId);
    expect(await rejectedRows('mixed-bad')).toEqual([
      { kind: 'interaction', reason: 'searchId is required for a click (the id of the search)', item_index: 4 },
    ]);
  });

  it.each([
    [{ type: 'click', searchId: 'not-a-uuid', objectId: 'bad-1', position: 1 }, 'searchId must be a UUID (with or without dashes)'],
    [{ type: 'click', searchId: randomUUID(), objectId: 'bad-2', position: 0 }, 'position must be an integer from 1 to 65535'],
    [{ type: 'conversion', objectId: 'bad-3', value: -1, currency: 'EUR' }, 'value must be a number >= 0 and below 1e12'],
    [{ type: 'conversion', objectId: 'bad-4', value: 1, currency: 'EURO' }, 'currency must be three letters (ISO 4217, e.g. EUR)'],
    [{ type: 'conversion', objectId: 'bad-5', ts: Date.now() + 86_400_000 }, undefined],
    [{ type: 'conversion', objectId: 'bad-6', ts: '2001-01-01T00:00:00Z' }, undefined],
    [{ type: 'view', objectId: 'bad-7' }, undefined],
  ])('rejects %p naming the field, keeps it as an interaction, and stores the others', async (item, reason) => {
    const marker = item.objectId;
    const res = await send([{ phrase: `with ${marker}`, language: 'en', hits: 1 }, item]);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);
    expect(res.body.rejected).toHaveLength(1);
    expect(res.body.rejected[0].index).toBe(1);
    if (reason) {
      expect(res.body.rejected[0].reason).toBe(reason);
    }
    const field = item.type === 'view' ? 'type' : Object.keys(item).find((k) => res.body.rejected[0].reason.startsWith(k));
    expect(field).toBeDefined();
    const kept = await rejectedRows(marker);
    expect(kept).toEqual([
      { kind: item.type === 'view' ? 'search-event' : 'interaction', reason: res.body.rejected[0].reason, item_index: 1 },
    ]);
    expect(await interactionCount(marker)).toBe(0);
  });

  it('stores a retried mixed request with ids once, in both tables', async () => {
    const searchId = randomUUID();
    const events = [
      { id: searchId, phrase: 'retried mixed', language: 'en', hits: 2 },
      { id: randomUUID(), type: 'click', searchId, objectId: 'retried-1', position: 1 },
      { id: randomUUID(), type: 'conversion', searchId, objectId: 'retried-2' },
      { id: randomUUID(), type: 'click', searchId, objectId: 'retried-bad', position: -1 },
    ];
    const before = await storedCounts(t);
    const answers = [await send(events), await send(events), ...(await Promise.all([send(events), send(events)]))];
    for (const a of answers) {
      expect([a.status, a.body]).toEqual([
        202,
        { accepted: 3, rejected: [{ index: 3, reason: 'position must be an integer from 1 to 65535' }] },
      ]);
    }
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(1);
    expect(await rejectedRows('retried-bad')).toHaveLength(1);
    expect((await interactions('retried-')).map((r) => [r.object_id, r.has_token])).toEqual([
      ['retried-1', true],
      ['retried-2', true],
    ]);
  });

  it('completes a request whose interactions failed after its search events landed, exactly, on its retry', async () => {
    const searchId = randomUUID();
    const events = [
      { id: searchId, phrase: 'half stored', language: 'en', hits: 2 },
      { id: randomUUID(), phrase: 'half stored too', language: 'en', hits: 0 },
      { id: randomUUID(), type: 'click', searchId, objectId: 'half-1', position: 3 },
      { id: randomUUID(), type: 'conversion', searchId, objectId: 'half-2', value: 5, currency: 'USD' },
      { id: randomUUID(), phrase: '', language: 'en', hits: 1 },
    ];
    const before = await storedCounts(t);
    // Storage refuses every interaction (not a data error: retried, then 503) while search events are stored.
    await onStoredTables(t, `ALTER TABLE ${ch.table('interactions')} ADD CONSTRAINT interactions_down CHECK object_id = ''`);
    let failed: Awaited<ReturnType<typeof send>>;
    try {
      failed = await send(events);
    } finally {
      await onStoredTables(t, `ALTER TABLE ${ch.table('interactions')} DROP CONSTRAINT interactions_down`);
    }
    expect(failed.status).toBe(503);
    expect(failed.body.message).toContain('a retry with the same ids completes it exactly');
    const landed = await storedCounts(t);
    expect(landed.events - before.events).toBe(2);
    expect(await interactionCount('half-')).toBe(0);

    const expected = { accepted: 4, rejected: [{ index: 4, reason: 'phrase is empty' }] };
    expect([(await send(events)).body, (await send(events)).body]).toEqual([expected, expected]);
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(2);
    expect(after.rollup - before.rollup).toBe(2);
    expect(after.rejected - before.rejected).toBe(1);
    expect((await interactions('half-')).map((r) => [r.object_id, r.value])).toEqual([
      ['half-1', 0],
      ['half-2', 5],
    ]);
  });

  it('stores rows built elsewhere (IntakeService.submitInteractions): an item of several rows is one item, stored once', async () => {
    const rules = { retentionDays: 30, bots: undefined as never };
    // A stand-in for an Insights event: one item, one conversion per object, all under the item's index.
    const source: InteractionSource = {
      validate: (value, origin) => {
        const { objects, queryID } = value as { objects: string[]; queryID: string };
        const rows: InteractionRow[] = [];
        for (const [i, objectId] of (objects ?? []).entries()) {
          const one = validateInteraction({ type: 'conversion', searchId: queryID, objectId }, origin, rules);
          if (!one.ok) {
            return one;
          }
          rows.push({ ...one.row, origin: 'insights', object_index: i });
        }
        return rows.length === 0 ? { ok: false, reason: 'objects must not be empty' } : { ok: true, row: rows[0], more: rows.slice(1) };
      },
      retryToken: (customer, instance, items) => `insights-test:${customer}:${instance}:${JSON.stringify(items)}`,
    };
    const intake = t.app.get(IntakeService);
    const searchId = randomUUID();
    const items = [
      { queryID: searchId, objects: ['several-a', 'several-b', 'several-c'] },
      { queryID: searchId, objects: [] },
      { queryID: 'nope', objects: ['several-bad'] },
      { queryID: searchId, objects: ['several-d'] },
    ];
    const expected = {
      accepted: 2,
      rejected: [
        { index: 1, reason: 'objects must not be empty' },
        { index: 2, reason: 'searchId must be a UUID (with or without dashes)' },
      ],
    };
    expect(await intake.submitInteractions('demo', 'live', items, source)).toEqual(expected);
    expect(await intake.submitInteractions('demo', 'live', items, source)).toEqual(expected);
    expect((await interactions('several-')).map((r) => [r.object_id, r.object_index, r.origin, r.has_token])).toEqual([
      ['several-a', 0, 'insights', true],
      ['several-b', 1, 'insights', true],
      ['several-c', 2, 'insights', true],
      ['several-d', 0, 'insights', true],
    ]);
    expect((await rejectedRows('nope')).map((r) => [r.kind, r.item_index])).toEqual([['interaction', 2]]);
  });

  it('tells the answer caches of a write of interactions only', async () => {
    const versions = t.app.get(DataVersions);
    const before = versions.get('demo', 'live');
    expect((await send([{ type: 'conversion', objectId: 'cache-1' }])).body).toEqual({ accepted: 1, rejected: [] });
    expect(versions.get('demo', 'live')).toBeGreaterThan(before);
  });

  it('needs search:write for interactions too', async () => {
    const reader = await createKey(t.url, ['search:read']);
    const res = await send([{ type: 'conversion', objectId: 'forbidden-1' }], reader.secret);
    expect(res.status).toBe(403);
    expect(await interactionCount('forbidden-')).toBe(0);
  });
});
