/**
 * Searches and interactions written straight into storage (search_events with id_sent, interactions), as the
 * intake will store them, for the engagement tests; and a raw computation of the engagement figures that follows
 * the contract (docs/architecture.md, "Clicks and conversions") on the rows written, in plain JavaScript.
 */
import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { NO_SEARCH_ID, chDateTime, personalHash } from '@app/contracts';

export const CUSTOMER = 'demo';
export const INSTANCE = 'live';

export interface Search {
  /** Canonical id; undefined for a search sent without one (id_sent false). */
  id?: string;
  ts: number;
  phrase: string;
  language: string;
  bot: boolean;
  hits: number;
}

export interface Interaction {
  type: 'click' | 'conversion' | 'view';
  /** Canonical id, or NO_SEARCH_ID. */
  searchId: string;
  objectId: string;
  objectIndex?: number;
  position: number;
  subtype: '' | 'addToCart' | 'purchase';
  /** In millionths of the currency unit (storage keeps 6 decimals). */
  micros: number;
  currency: string;
  ts: number;
  userToken?: string;
}

export function searchRow(s: Search) {
  return {
    event_id: s.id ?? randomUUID(),
    customer: CUSTOMER,
    instance: INSTANCE,
    ts: chDateTime(s.ts),
    phrase: s.phrase,
    raw_phrase: s.phrase,
    language: s.language,
    hits: s.hits,
    bot: s.bot,
    session_hash: '',
    source: 'http',
    topic: '',
    partition: -1,
    offset: -1,
    received_at: chDateTime(),
    sign: 1,
    id_sent: s.id !== undefined,
  };
}

export const userTokenHash = (token: string | undefined) => personalHash(CUSTOMER, token);

/** A decimal string of millionths. */
const decimal = (m: number) => `${Math.floor(m / 1e6)}.${String(m % 1e6).padStart(6, '0')}`;

export function interactionRow(i: Interaction) {
  return {
    interaction_id: randomUUID(),
    customer: CUSTOMER,
    instance: INSTANCE,
    type: i.type,
    search_id: i.searchId,
    object_id: i.objectId,
    object_index: i.objectIndex ?? 0,
    position: i.position,
    subtype: i.subtype,
    value: decimal(i.micros),
    currency: i.currency,
    ts: chDateTime(i.ts),
    user_token_hash: userTokenHash(i.userToken),
    session_hash: '',
    origin: 'native',
    event_name: '',
    index_name: '',
    filters: [],
    source: 'http',
    topic: '',
    partition: -1,
    offset: -1,
    message_hash: 0,
    received_at: chDateTime(),
  };
}

export async function insertSearches(ch: ClickHouseService, searches: readonly Search[]): Promise<void> {
  await ch.insert('search_events', searches.map(searchRow));
}

export async function insertInteractions(ch: ClickHouseService, interactions: readonly Interaction[]): Promise<void> {
  await ch.insert('interactions', interactions.map(interactionRow));
}

/** What DELETE /1/usertokens/{userToken} records. */
export async function eraseUserToken(ch: ClickHouseService, token: string): Promise<void> {
  await ch.insert('erased_user_tokens', [
    { customer: CUSTOMER, instance: INSTANCE, user_token_hash: userTokenHash(token), at: chDateTime().slice(0, 19) },
  ]);
}

/** The figures of a group of tracked searches, revenue in millionths. */
export interface RawCounts {
  tracked: number;
  clicked: number;
  clicks: number;
  positionSum: number;
  converted: number;
  revenue: Record<string, number>;
  carted: number;
  purchased: number;
  purchaseRevenue: Record<string, number>;
}

export interface RawFilter {
  from: number;
  to: number;
  language?: string;
  includeBots: boolean;
}

/** A tracked search as the contract reads it: its canonical copy (the smallest by time, phrase, language, bot, hits). */
export interface Tracked {
  id: string;
  copy: Search;
}

const cmp = (a: string | number | boolean, b: string | number | boolean) =>
  typeof a === 'string' ? Buffer.compare(Buffer.from(a), Buffer.from(b as string)) : Number(a) - Number(b);

/** The canonical copy of every id sent (what search_ids holds). */
export function canonicalCopies(searches: readonly Search[]): Map<string, Search> {
  const copies = new Map<string, Search>();
  for (const s of searches) {
    if (s.id === undefined) {
      continue;
    }
    const held = copies.get(s.id);
    const key = (x: Search) => [x.ts, x.phrase, x.language, x.bot, x.hits] as const;
    if (!held || key(s).reduce((d: number, v, i) => d || cmp(v, key(held)[i]), 0) < 0) {
      copies.set(s.id, s);
    }
  }
  return copies;
}

/**
 * The tracked searches of a window: ids sent whose canonical copy lies in the window, matches the filter and found
 * results (the nil id aside).
 */
export function trackedSearches(searches: readonly Search[], f: RawFilter): Tracked[] {
  return [...canonicalCopies(searches)]
    .filter(
      ([id, c]) =>
        id !== NO_SEARCH_ID &&
        c.ts >= f.from &&
        c.ts < f.to &&
        c.hits > 0 &&
        (f.includeBots || !c.bot) &&
        (f.language === undefined || c.language === f.language),
    )
    .map(([id, copy]) => ({ id, copy }));
}

/** Interactions that count, each identity once, erased user tokens left out. */
export function countedInteractions(interactions: readonly Interaction[], erased: ReadonlySet<string>): Interaction[] {
  const seen = new Map<string, Interaction>();
  for (const i of interactions) {
    if (i.type === 'view' || i.objectId === '' || (i.userToken !== undefined && erased.has(i.userToken))) {
      continue;
    }
    const identity = JSON.stringify([i.type, i.searchId, i.objectId, i.position, i.subtype, i.micros, i.currency, i.ts, i.userToken ?? '']);
    seen.set(identity, i);
  }
  return [...seen.values()];
}

/** The figures of a group of tracked searches, from the counted interactions. */
export function rawCounts(group: readonly Tracked[], counted: readonly Interaction[]): RawCounts {
  const ids = new Set(group.map((t) => t.id));
  const mine = counted.filter((i) => ids.has(i.searchId));
  const clicks = mine.filter((i) => i.type === 'click');
  const conversions = mine.filter((i) => i.type === 'conversion');
  const valued = (of: readonly Interaction[]) => {
    const sums: Record<string, number> = {};
    for (const c of of.filter((x) => x.micros > 0)) {
      sums[c.currency] = (sums[c.currency] ?? 0) + c.micros;
    }
    return sums;
  };
  const searchesWith = (subtype: Interaction['subtype']) =>
    new Set(conversions.filter((i) => i.subtype === subtype).map((i) => i.searchId)).size;
  return {
    carted: searchesWith('addToCart'),
    purchased: searchesWith('purchase'),
    purchaseRevenue: valued(conversions.filter((i) => i.subtype === 'purchase')),
    revenue: valued(conversions),
    tracked: group.length,
    clicked: new Set(clicks.map((i) => i.searchId)).size,
    clicks: clicks.length,
    positionSum: clicks.reduce((s, i) => s + i.position, 0),
    converted: new Set(conversions.map((i) => i.searchId)).size,
  };
}

/** The answer's fields of raw counts (rates null on a zero denominator, revenue as numbers, currencies ascending). */
export function rawFields(c: RawCounts) {
  const divided = (pairs: Record<string, [number, number]>) =>
    Object.fromEntries(Object.entries(pairs).map(([name, [a, b]]) => [name, b === 0 ? null : a / b]));
  const amounts = (sums: Record<string, number>) =>
    Object.fromEntries(
      Object.keys(sums)
        .sort((x, y) => cmp(x, y))
        .map((cur) => [cur, Number(decimal(sums[cur]))]),
    );
  return {
    ...divided({ click_through_rate: [c.clicked, c.tracked], conversion_rate: [c.converted, c.tracked] }),
    ...divided({ add_to_cart_rate: [c.carted, c.tracked], purchase_rate: [c.purchased, c.tracked] }),
    ...divided({ average_click_position: [c.positionSum, c.clicks] }),
    tracked_searches: c.tracked,
    clicked_searches: c.clicked,
    clicks: c.clicks,
    converted_searches: c.converted,
    revenue: amounts(c.revenue),
    added_to_cart_searches: c.carted,
    purchased_searches: c.purchased,
    purchase_revenue: amounts(c.purchaseRevenue),
  };
}

/** Unattributed clicks and conversions of [from, to) by their own time: no search, or an id no search was sent with. */
export function rawUnattributed(searches: readonly Search[], counted: readonly Interaction[], from: number, to: number) {
  const known = canonicalCopies(searches);
  const mine = counted.filter((i) => i.ts >= from && i.ts < to && (i.searchId === NO_SEARCH_ID || !known.has(i.searchId)));
  return {
    unattributed_clicks: mine.filter((i) => i.type === 'click').length,
    unattributed_conversions: mine.filter((i) => i.type === 'conversion').length,
  };
}

/**
 * A term's `positions` (clicks per position, 21 for 21 and beyond) and `objects` (the 10 most clicked, ties by object
 * id, with their conversions) as GET /search-terms/{id}?engagement=true answers them, from its tracked searches.
 */
export function rawDetail(group: readonly Tracked[], counted: readonly Interaction[]) {
  const ids = new Set(group.map((s) => s.id));
  const mine = counted.filter((i) => ids.has(i.searchId));
  const clicks = mine.filter((i) => i.type === 'click');
  const objects = [...new Set(clicks.map((c) => c.objectId))].map((objectId) => ({
    object_id: objectId,
    clicks: clicks.filter((c) => c.objectId === objectId).length,
    conversions: mine.filter((i) => i.type === 'conversion' && i.objectId === objectId).length,
  }));
  objects.sort((a, b) => b.clicks - a.clicks || cmp(a.object_id, b.object_id));
  return {
    positions: Array.from({ length: 21 }, (_, k) => ({
      position: k + 1,
      clicks: clicks.filter((c) => Math.min(c.position, 21) === k + 1).length,
    })),
    objects: objects.slice(0, 10),
  };
}
