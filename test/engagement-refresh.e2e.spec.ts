import { randomUUID } from 'node:crypto';
import { ClickHouseService, ENGAGEMENT_LAYOUT, chDateTime } from '@app/clickhouse';
import { DataVersions } from '@app/intake';
import { EngagementRefresh } from '../apps/query/src/analytics/engagement-refresh';
import { EngagementSpans, REPLACED_MOST } from '../apps/query/src/analytics/engagement-spans';
import { EngagementRepository } from '../apps/query/src/analytics/engagement.repository';
import { UserTokenErasure } from '../apps/query/src/insights/user-token-erasure.service';
import { termId } from '../apps/query/src/analytics/term-id';
import {
  CUSTOMER,
  INSTANCE,
  countedInteractions,
  eraseUserToken,
  insertInteractions,
  insertSearches,
  rawCounts,
  rawDetail,
  rawFields,
  trackedSearches,
  type Interaction,
  type Search,
  userTokenHash,
} from './support/engagement';
import { eventually, onStoredTables } from './support/storage';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Entry = ReturnType<typeof rawFields> & { search_phrase: string };

/**
 * Engagement figures computed ahead (ENGAGEMENT_REFRESH_MS; docs/architecture.md, "Clicks and conversions"): what a
 * pass computes, that a late click, an earlier copy of a search and an erased shopper reach the hours they change,
 * that rows without a recorded version are never read, and that replaced versions are deleted; the lists ordered by
 * the figures read them through the spans (hours settled after 2 hours here, a span read for every window). Every
 * figure is checked against the same raw computation as test/engagement.property.spec.ts.
 */
describe('engagement figures computed ahead (ENGAGEMENT_REFRESH_MS)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  let refresh: EngagementRefresh;
  let spans: EngagementSpans;
  const searches: Search[] = [];
  const interactions: Interaction[] = [];
  const erased = new Set<string>();
  const now = Date.now();
  const ids = Array.from({ length: 6 }, () => randomUUID());
  const base = { language: 'en', bot: false, hits: 3 };

  beforeAll(async () => {
    // The timer never fires during the suite: each step calls the refresh.
    t = await startApp({ ENGAGEMENT_REFRESH_MS: '3600000' });
    ch = t.app.get(ClickHouseService);
    refresh = t.app.get(EngagementRefresh);
    // Changes are read from the last pass on, without the margin for inserts in flight, so counts are exact.
    refresh.changesMarginMs = 0;
    spans = t.app.get(EngagementSpans);
    spans.settledHours = 2;
    t.app.get(EngagementRepository).spanAlways = true;
  });
  afterAll(() => t.close());

  const click = (searchId: string, ageMs: number, userToken?: string): Interaction => ({
    type: 'click',
    searchId,
    objectId: 'p1',
    position: 2,
    subtype: '',
    micros: 0,
    currency: '',
    ts: now - ageMs,
    userToken,
  });

  async function write(s: Search[], i: Interaction[]): Promise<void> {
    await insertSearches(ch, s);
    await insertInteractions(ch, i);
    searches.push(...s);
    interactions.push(...i);
  }

  /** The list of the last 10 days with engagement, each term's fields equal to the raw computation's. */
  async function expectExact(): Promise<Record<string, Entry>> {
    t.app.get(DataVersions).bump(CUSTOMER, INSTANCE);
    const res = await http<Entry[]>(`${t.url}/search-terms?since=10d&engagement=true&_end=100`, { headers: basicHeader() });
    expect(res.status).toBe(200);
    const from = Math.floor((Date.now() - 10 * DAY) / HOUR) * HOUR;
    const to = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
    const tracked = trackedSearches(searches, { from, to, includeBots: false });
    const counted = countedInteractions(interactions, erased);
    const listed = Object.fromEntries(res.body.map((e) => [e.search_phrase, e]));
    const phrases = [...new Set(tracked.map((s) => s.copy.phrase))];
    expect(Object.keys(listed).sort()).toEqual(phrases.sort());
    for (const phrase of phrases) {
      const fields = rawFields(
        rawCounts(
          tracked.filter((s) => s.copy.phrase === phrase),
          counted,
        ),
      );
      expect([phrase, listed[phrase]]).toMatchObject([phrase, fields]);
      // The term's detail: its fields, clicks per position and objects.
      const group = tracked.filter((s) => s.copy.phrase === phrase);
      const detail = await http<Entry & ReturnType<typeof rawDetail>>(
        `${t.url}/search-terms/${termId(CUSTOMER, INSTANCE, phrase)}?since=10d&engagement=true`,
        { headers: basicHeader() },
      );
      expect(detail.status).toBe(200);
      expect([phrase, detail.body]).toMatchObject([phrase, { ...rawFields(rawCounts(group, counted)), ...rawDetail(group, counted) }]);
    }
    // Ordered by the figures: every phrase's figures of the window, through the span.
    const todo = await http<Entry[]>(`${t.url}/search-terms?since=10d&sort=no_clicks&_end=100`, { headers: basicHeader() });
    expect(todo.status).toBe(200);
    const gap = (e: Entry) => e.tracked_searches - e.clicked_searches;
    const expected = Object.values(listed).sort((a, b) => gap(b) - gap(a) || (a.search_phrase < b.search_phrase ? -1 : 1));
    expect(todo.body).toEqual(expected);
    return listed;
  }

  /** The spans of the instance (their versions), newest first. */
  async function spanVersions(): Promise<string[]> {
    const rows = await ch.query<{ span: string }>(
      `SELECT toString(span) AS span FROM ${ch.table('engagement_spans')} WHERE customer = {c:String} AND instance = {i:String}
       ORDER BY span DESC`,
      { c: CUSTOMER, i: INSTANCE },
    );
    return rows.map((r) => r.span);
  }

  async function versionsOf(hour: number): Promise<number> {
    const [row] = await ch.query<{ n: string }>(
      `SELECT count() AS n FROM (SELECT DISTINCT version FROM ${ch.table('engagement_hourly')}
       WHERE customer = {c:String} AND instance = {i:String} AND hour = toDateTime({h:UInt32}, 'UTC'))`,
      { c: CUSTOMER, i: INSTANCE, h: hour / 1000 },
    );
    return Number(row.n);
  }

  it('a first pass computes every hour of the retention; the answers equal the raw computation', async () => {
    await write(
      [
        { ...base, id: ids[0], phrase: 'shoes', ts: now - 5 * DAY },
        { ...base, id: ids[1], phrase: 'shoes', ts: now - 2 * DAY },
        { ...base, id: ids[2], phrase: 'dress', ts: now - 3 * HOUR },
        { ...base, id: ids[3], phrase: 'dress', ts: now - 4 * DAY },
      ],
      [
        click(ids[0], 5 * DAY - 1000),
        click(ids[2], 3 * HOUR - 1000, 'u1'),
        // Converted in another hour than the click on the same object, without a click of its own.
        { ...click(ids[1], 2 * DAY - 1000), type: 'conversion', position: 0, micros: 12_500_000, currency: 'EUR' },
      ],
    );
    // The pass that began with the app found nothing yet, or (if it began after the writes) everything.
    const computed = await refresh.refresh();
    expect(computed === 0 || computed >= t.config.retentionDays * 24).toBe(true);
    const listed = await expectExact();
    expect(listed.shoes).toMatchObject({ tracked_searches: 2, clicked_searches: 1, clicks: 1 });
    const shoes = await http<ReturnType<typeof rawDetail>>(
      `${t.url}/search-terms/${termId(CUSTOMER, INSTANCE, 'shoes')}?since=10d&engagement=true`,
      { headers: basicHeader() },
    );
    expect(shoes.body.objects).toEqual([{ object_id: 'p1', clicks: 1, conversions: 1 }]);
    expect(shoes.body.positions[1]).toEqual({ position: 2, clicks: 1 });
    // An operator sees when the last pass began, and how many hours the passes computed.
    const metrics = await http<string>(`${t.url}/metrics`);
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics.body)?.[1]);
    expect(value('engagement_refresh_last_pass_seconds')).toBeGreaterThanOrEqual(Math.floor(now / 1000) - 60);
    expect(value('engagement_refresh_hours_total')).toBeGreaterThanOrEqual(t.config.retentionDays * 24);
  });

  it('a late click reaches the hour of its search, 4 days back, and a pass computes only the hours that changed', async () => {
    await refresh.refresh();
    await write([], [click(ids[3], 4 * DAY - 5000)]);
    // The hour of the search, and the current hour if it began since the last pass.
    expect(await refresh.refresh()).toBeLessThanOrEqual(2);
    const listed = await expectExact();
    expect(listed.dress).toMatchObject({ tracked_searches: 2, clicked_searches: 2, clicks: 2 });
  });

  it('a span that holds an hour computed again since reads that hour at its new version, until the next span', async () => {
    await refresh.refresh();
    const before = await spanVersions();
    expect(before.length).toBeGreaterThan(0);
    // A late click 5 days back: its hour is computed again, and one replaced hour does not build a new span.
    await write([], [click(ids[0], 5 * DAY - 9000)]);
    await refresh.refresh();
    expect(await spanVersions()).toEqual(before);
    const listed = await expectExact();
    expect(listed.shoes).toMatchObject({ clicks: 2 });
    // More replaced hours than REPLACED_MOST (0 here) build a new span.
    spans.replacedMost = 0;
    try {
      await refresh.refresh();
    } finally {
      spans.replacedMost = REPLACED_MOST;
    }
    expect((await spanVersions()).length).toBe(before.length + 1);
    await expectExact();
  });

  it('rows of a span without its record (a pass that failed) are never read', async () => {
    await ch.command(
      `INSERT INTO ${ch.table('engagement_phrase_spans')} (customer, instance, span, phrase, language, bot, tracked, clicked, clicks,
         pos_sum, converted, rev_cur, rev_val, carted, purchased, pur_cur, pur_val)
       VALUES ({c:String}, {i:String}, now64(6), 'dress', 'en', false, 50, 0, 0, 0, 0, [], [], 0, 0, [], [])`,
      { c: CUSTOMER, i: INSTANCE },
    );
    await expectExact();
  });

  it('an earlier copy of a search moves it out of the hour it was counted in', async () => {
    await refresh.refresh();
    // ids[1] was counted 2 days back as "shoes"; a copy 4.5 days back (as "boots") is now its first.
    await write([{ ...base, id: ids[1], phrase: 'boots', ts: now - 4.5 * DAY }], []);
    // Merged: one row per id, whose smallest copy alone no longer names the hour the search was counted in.
    await onStoredTables(t, `OPTIMIZE TABLE ${ch.table('search_ids')} FINAL`);
    // Both hours, and the current one if it began since the last pass.
    expect(await refresh.refresh()).toBeLessThanOrEqual(3);
    const listed = await expectExact();
    expect(listed.shoes).toMatchObject({ tracked_searches: 1 });
    expect(listed.boots).toMatchObject({ tracked_searches: 1 });
  });

  it("an erased shopper's clicks leave the hours of their searches", async () => {
    await eraseUserToken(ch, 'u1');
    erased.add('u1');
    await refresh.refresh();
    const listed = await expectExact();
    expect(listed.dress).toMatchObject({ clicked_searches: 1, clicks: 1 });
  });

  it("the purge deletes an erased shopper's interactions only once a pass began 10 minutes after the erasure", async () => {
    // u2 was erased an hour before the last pass, u1 (above) just before it.
    await write([], [click(ids[4], HOUR, 'u2')]);
    await ch.insert('erased_user_tokens', [
      { customer: CUSTOMER, instance: INSTANCE, user_token_hash: userTokenHash('u2'), at: chDateTime(Date.now() - HOUR).slice(0, 19) },
    ]);
    erased.add('u2');
    await refresh.refresh();
    await t.app.get(UserTokenErasure).purge();
    const left = (token: string) => async () => {
      const [row] = await ch.query<{ n: string }>(
        `SELECT count() AS n FROM ${ch.table('interactions')} WHERE user_token_hash = {h:String}`,
        { h: userTokenHash(token) },
      );
      return Number(row.n);
    };
    expect(await eventually(left('u2'), (n) => n === 0, 10_000)).toBe(0);
    expect(await left('u1')()).toBe(1);
    await expectExact();
  });

  it('rows of a version without its record (a pass that failed) are never read', async () => {
    const hour = Math.floor((now - 3 * HOUR) / HOUR) * HOUR;
    await ch.command(
      `INSERT INTO ${ch.table('engagement_hourly')} (customer, instance, kind, hour, phrase, language, bot, version, tracked, clicked,
         clicks, pos_sum, converted, rev_cur, rev_val)
       VALUES ({c:String}, {i:String}, 'phrase', toDateTime({h:UInt32}, 'UTC'), 'dress', 'en', false, now64(3), 50, 50, 50, 50, 0, [], [])`,
      { c: CUSTOMER, i: INSTANCE, h: hour / 1000 },
    );
    await expectExact();
  });

  it('an hour recorded only by an earlier release (another layout, without positions and objects) is computed again', async () => {
    const hour = Math.floor((now - 5 * DAY) / HOUR) * HOUR;
    const where = `customer = {c:String} AND instance = {i:String} AND hour = toDateTime({h:UInt32}, 'UTC')`;
    const params = { c: CUSTOMER, i: INSTANCE, h: hour / 1000 };
    // As an earlier release's pass leaves it: newer counts without positions and objects, recorded as layout 0.
    await onStoredTables(t, `DELETE FROM ${ch.table('engagement_versions')} WHERE ${where}`, params);
    await ch.command(
      `INSERT INTO ${ch.table('engagement_hourly')} (customer, instance, kind, hour, phrase, language, bot, version, tracked, clicked,
         clicks, pos_sum, converted, rev_cur, rev_val)
       VALUES ({c:String}, {i:String}, 'phrase', toDateTime({h:UInt32}, 'UTC'), 'shoes', 'en', false, now64(3), 1, 1, 1, 2, 0, [], [])`,
      params,
    );
    await ch.command(
      `INSERT INTO ${ch.table('engagement_versions')} (customer, instance, hour, version, layout)
       SELECT {c:String}, {i:String}, toDateTime({h:UInt32}, 'UTC'), max(version), 0 FROM ${ch.table('engagement_hourly')} WHERE ${where}`,
      params,
    );
    await refresh.refresh();
    const [{ n }] = await ch.query<{ n: string }>(
      `SELECT count() AS n FROM ${ch.table('engagement_versions')} WHERE ${where} AND layout = {l:UInt8}`,
      { ...params, l: ENGAGEMENT_LAYOUT },
    );
    expect(Number(n)).toBe(1);
    await expectExact();
  });

  it('a version is deleted an hour after a newer one was recorded, one never recorded a day after its pass began', async () => {
    const hour = Math.floor((now - 3 * HOUR) / HOUR) * HOUR;
    // A span of the newest versions, so that no span keeps an older one (below).
    spans.replacedMost = 0;
    try {
      await refresh.refresh();
    } finally {
      spans.replacedMost = REPLACED_MOST;
    }
    expect(await versionsOf(hour)).toBeGreaterThan(2);
    // Versions recorded less than an hour ago are all kept: a reader may have chosen any of them.
    await refresh.deleteReplaced(Date.now());
    expect(await versionsOf(hour)).toBeGreaterThan(2);
    // An hour later, the older recorded ones go; a day later, also the one never recorded.
    await refresh.deleteReplaced(Date.now() + HOUR + 1000);
    expect(await versionsOf(hour)).toBe(2);
    await refresh.deleteReplaced(Date.now() + DAY + 1000);
    expect(await versionsOf(hour)).toBe(1);
    await expectExact();
  });

  it('a version that a span sums is kept while the span is; a span is deleted a day after it was recorded', async () => {
    await refresh.refresh();
    const hour = Math.floor((now - 4 * DAY) / HOUR) * HOUR;
    const versions = await versionsOf(hour);
    // A late click in that hour: a new version, which the span (one replaced hour) does not hold.
    await write([], [click(ids[3], 4 * DAY - 7000)]);
    await refresh.refresh();
    expect(await versionsOf(hour)).toBe(versions + 1);
    // An hour later the replaced version would go, but the span still sums it: kept, and the answers stay exact.
    await refresh.deleteReplaced(Date.now() + HOUR + 1000);
    expect(await versionsOf(hour)).toBe(versions + 1);
    await expectExact();
    // A day later the span goes, and the version with it; the lists add up the hours until the next span.
    await refresh.deleteReplaced(Date.now() + DAY + 1000);
    expect(await spanVersions()).toEqual([]);
    expect(await versionsOf(hour)).toBe(1);
    await expectExact();
    await refresh.refresh();
    expect((await spanVersions()).length).toBe(1);
    await expectExact();
  });

  it('a list of 30 days ordered by the figures reads the span (without being told to)', async () => {
    const repository = t.app.get(EngagementRepository);
    repository.spanAlways = false;
    const query = jest.spyOn(ch, 'query');
    try {
      const res = await http<Entry[]>(`${t.url}/search-terms?since=30d&sort=conversion_rate`, { headers: basicHeader() });
      expect(res.status).toBe(200);
      expect(query.mock.calls.some(([sql]) => sql.includes('engagement_phrase_spans'))).toBe(true);
    } finally {
      query.mockRestore();
      repository.spanAlways = true;
    }
  });
});
