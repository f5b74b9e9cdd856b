import { createInsightsClient } from 'search-insights';
import { ClickHouseService } from '@app/clickhouse';
import { canonicalId } from '@app/contracts';
import { caughtUp, describeKafka } from './support/kafka';
import { kafkaSuite } from './support/kafka-app';
import { createCollectorKey, fetchRequester } from './support/insights';
import { eventually } from './support/storage';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

const QUERY_1 = '0190c7a45e4f7b6a9c3d2f1e0d9c8b7b';
const QUERY_2 = 'ABCDEF0123456789ABCDEF012345678A';
const NO_TIMESTAMP = 'k7 viewed without timestamp';

type Client = ReturnType<typeof createInsightsClient>;

/** The real client (search-insights 2.x in Node) pointed at `app` with a collector key of it. */
async function clientOf(app: TestApp): Promise<Client> {
  const key = await createCollectorKey(app.url);
  expect(key.status).toBe(201);
  const aa = createInsightsClient(fetchRequester);
  aa('init', { appId: 'demo', apiKey: (key.body as { secret: string }).secret, host: app.url, userToken: 'shopper-k' });
  return aa;
}

/** A click with two objects and positions, on QUERY_1 (sent again as a client's retry). */
const click = (aa: Client, timestamp: number) => {
  const objects = { objectIDs: ['sku-1', 'sku-2'], positions: [1, 4] };
  return aa('clickedObjectIDsAfterSearch', { eventName: 'k1 clicked', index: 'products', queryID: QUERY_1, ...objects, timestamp });
};

/** One request per event, each as the client sends it: every kind of event the protocol stores. */
function sendAll(aa: Client, timestamp: number): Promise<unknown[]> {
  return Promise.all([
    click(aa, timestamp),
    // Its value from objectData (12 x 3 - 1.5 + 4.25), once, on its first object (QUERY_1); the second names QUERY_2.
    aa('purchasedObjectIDsAfterSearch', {
      eventName: 'k2 purchased',
      queryID: QUERY_1,
      index: 'products',
      objectData: [
        { quantity: 3, price: '12.00', discount: '1.5' },
        { queryID: QUERY_2, price: 4.25 },
      ],
      objectIDs: ['sku-1', 'sku-4'],
      currency: 'eur',
      timestamp,
    }),
    aa('convertedObjectIDs', {
      eventName: 'k3 converted without search',
      index: 'products',
      objectIDs: ['sku-6'],
      authenticatedUserToken: 'member-1',
      timestamp,
    } as never),
    aa('clickedObjectIDs', { eventName: 'k4 clicked without search', index: 'products', objectIDs: ['sku-5'], timestamp }),
    aa('clickedFilters', { eventName: 'k5 filter clicked', index: 'products', filters: ['brand:Apple'], timestamp }),
    aa('viewedObjectIDs', { eventName: 'k6 viewed', index: 'products', objectIDs: ['sku-7'], timestamp }),
    aa('viewedObjectIDs', { eventName: NO_TIMESTAMP, index: 'products', objectIDs: ['sku-8'] }),
  ]);
}

/** Events sent and the rows they make (one per object, one for the filter-only event). */
const EVENTS = 7;
const ROWS = 9;

/** Every column but the Kafka offset ones, source, received_at and the drawn ids; `ts` only where the event gave it. */
const rowsOf = (ch: ClickHouseService) =>
  ch.query<Record<string, unknown>>(
    `SELECT customer, instance, type, toString(search_id) AS search_id, object_id, object_index, position, subtype,
            toString(value) AS value, currency, if(event_name = {none:String}, '', toString(ts)) AS ts, user_token_hash,
            session_hash, origin, event_name, index_name, filters, intake_token
     FROM ${ch.table('interactions')} WHERE startsWith(event_name, 'k') ORDER BY event_name, object_index`,
    { none: NO_TIMESTAMP },
  );

/** The engagement figures of the term searched with QUERY_1's id. */
async function termFigures(app: TestApp) {
  const res = await http<Array<Record<string, unknown>>>(`${app.url}/search-terms?since=1d&engagement=true`, { headers: basicHeader() });
  expect(res.status).toBe(200);
  const term = res.body.find((t) => t.search_phrase === 'kafka shoes');
  const fields = ['tracked_searches', 'clicked_searches', 'clicks', 'average_click_position', 'converted_searches', 'revenue'];
  return term && Object.fromEntries(fields.map((f) => [f, term[f]]));
}

const search = (app: TestApp) => {
  const body = JSON.stringify({ events: [{ id: QUERY_1, phrase: 'kafka shoes', language: 'en', hits: 5 }] });
  return http(`${app.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
};

/**
 * POST /1/events on the Kafka transport (docs/architecture.md, "Clicks and conversions"): what the real client sends is
 * produced as one message per event, which the ingest app stores once as exactly the rows the embedded transport stores.
 */
describeKafka('POST /1/events on the Kafka transport (search-insights in Node)', () => {
  const TOPIC = 'insights-events';
  const GROUP = 'insights';
  const suite = kafkaSuite(TOPIC, GROUP, { COLLECT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' });
  let embedded: TestApp;
  beforeAll(async () => {
    embedded = await startApp({ COLLECT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => embedded?.close());

  const messages = async () => (await suite.broker.admin.fetchTopicOffsets(TOPIC)).reduce((sum, p) => sum + Number(p.high), 0);
  const settled = async (ch: ClickHouseService, rows: number) => {
    await eventually(() => caughtUp(suite.broker, GROUP, TOPIC), Boolean);
    await eventually(
      () => rowsOf(ch),
      (r) => r.length >= rows,
    );
    await new Promise((r) => setTimeout(r, 500));
  };

  it('stores each event once, as one message of one offset, with the rows the embedded transport stores', async () => {
    const { app: kafka } = suite;
    const kafkaCh = kafka.app.get(ClickHouseService);
    const embeddedCh = embedded.app.get(ClickHouseService);
    const timestamp = Date.now() - 60_000;
    const before = await messages();
    expect(await sendAll(await clientOf(kafka), timestamp)).toEqual(Array(EVENTS).fill(true));
    expect(await sendAll(await clientOf(embedded), timestamp)).toEqual(Array(EVENTS).fill(true));
    expect((await messages()) - before).toBe(EVENTS);

    await settled(kafkaCh, ROWS);
    const stored = await rowsOf(kafkaCh);
    expect(stored).toHaveLength(ROWS);
    expect(stored).toEqual(await rowsOf(embeddedCh));
    expect(stored.filter((r) => r.event_name === 'k3 converted without search')[0].session_hash).not.toBe('');

    // One offset per event, its rows together; the receive time is the default timestamp on both transports.
    const [offsets] = await kafkaCh.query<{ offsets: string; rows: string; sources: string[]; defaulted: number }>(
      `SELECT uniqExact(partition, offset) AS offsets, count() AS rows, groupUniqArray(source) AS sources,
              countIf(event_name = {none:String} AND ts = received_at) AS defaulted
       FROM ${kafkaCh.table('interactions')} WHERE startsWith(event_name, 'k') AND topic = {topic:String}`,
      { none: NO_TIMESTAMP, topic: TOPIC },
    );
    expect([Number(offsets.offsets), Number(offsets.rows), offsets.sources, Number(offsets.defaulted)]).toEqual([
      EVENTS,
      ROWS,
      ['kafka'],
      1,
    ]);
    const [viewed] = await embeddedCh.query<{ defaulted: number }>(
      `SELECT countIf(ts = received_at) AS defaulted FROM ${embeddedCh.table('interactions')} WHERE event_name = {none:String}`,
      { none: NO_TIMESTAMP },
    );
    expect(Number(viewed.defaulted)).toBe(1);
  }, 90_000);

  it('counts a retried request once (identical interactions), as the embedded transport does', async () => {
    const { app: kafka } = suite;
    const kafkaCh = kafka.app.get(ClickHouseService);
    const timestamp = Date.now() - 30_000;
    // The search of QUERY_1 arrives now: the first test's click (two objects) and purchase count for it too.
    const expected = {
      tracked_searches: 1,
      clicked_searches: 1,
      clicks: 4,
      average_click_position: 2.5,
      converted_searches: 1,
      revenue: { EUR: 38.75 },
    };
    for (const app of [kafka, embedded]) {
      // POST /events with ids: the retry token applies, the retried search is stored once.
      expect([(await search(app)).status, (await search(app)).status]).toEqual([202, 202]);
      const aa = await clientOf(app);
      // Events carry no id, so no retry token applies: the retry is stored again and counted once.
      expect(await click(aa, timestamp)).toBe(true);
      expect(await click(aa, timestamp)).toBe(true);
    }
    await settled(kafkaCh, ROWS + 4);
    await eventually(
      () => termFigures(kafka),
      (f) => f?.tracked_searches === 1,
    );
    expect(await termFigures(kafka)).toEqual(expected);
    expect(await termFigures(embedded)).toEqual(expected);
    const clicks = await kafkaCh.query<{ n: string }>(
      `SELECT count() AS n FROM ${kafkaCh.table('interactions')}
       WHERE event_name = 'k1 clicked' AND ts = fromUnixTimestamp64Milli({at:Int64})`,
      { at: timestamp },
    );
    expect(Number(clicks[0].n)).toBe(4);
    const searches = await kafkaCh.query<{ n: string }>(
      `SELECT count() AS n FROM ${kafkaCh.table('search_events')} WHERE event_id = {id:UUID}`,
      {
        id: canonicalId(QUERY_1),
      },
    );
    expect(Number(searches[0].n)).toBe(1);
  }, 90_000);
});
