/**
 * The scale data sets' events (issue 31; docs/benchmarks/methods.md, "Scale data sets"): search n, and the clicks and the
 * conversion that follow it, are a pure function of n, the seed and the end time, written twice with the same integer arithmetic:
 * in JavaScript (BigInt), as the items a client would POST, and in SQL, as the columns of the rows the service
 * stores, so that bench/scale-data.ts can generate 100M of them inside the engine (INSERT ... SELECT FROM numbers)
 * and test/scale-data.e2e.spec.ts can check the two against each other through the HTTP API.
 *
 * Every draw comes from hash(n, k): splitmix64's finaliser over `n * GOLDEN + (seed * 64 + k) * STREAM` (mod 2^64),
 * one stream k per purpose; a draw is a modulus of a bit range of it, so both sides compute it exactly.
 */
import { BotDetector } from '@app/contracts';
import {
  BOTS,
  BROWSERS,
  COUNTRIES,
  DAY_MS,
  FILTER_ATTRIBUTES,
  FILTER_OPERATORS,
  FILTER_VALUES,
  LANGUAGES,
  TAGS,
  USERS,
  ZIPF_S,
  filterText,
  userSession,
} from './generator';

/** The data set's span: searches and interactions lie in (end - SPAN_MS, end]. */
export const SPAN_MS = 30 * DAY_MS;
/** An interaction comes 5 s to 10 min after its search; searches end MAX_DELAY_MS before `end`. */
export const MIN_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 600_000;
/** Zipf phrases as bench/generator.ts draws them: ranks 0..PHRASES-1, weight 1/(rank+1)^ZIPF_S. */
export const PHRASES = 200_000;
/** Objects clicked: `sku-<k>`, k from the phrase's rank and the position (the same product at the same place). */
export const OBJECTS = 100_000;
/** Shoppers behind the interactions (`userToken` `shopper-<k>`, one per search). */
export const SHOPPERS = 100_000;

/** A filter's value rank is drawn from 13 bits: thresholds out of 2^13 (the rarest value keeps a share). */
const VALUE_BITS = 13;

/** Click counts per tracked search that found results (not a bot): cumulative percentages for 0, 1, 2 and 3. */
const CLICKS_CUMULATIVE = [72, 89, 96, 100];

export interface ScaleOptions {
  seed: number;
  /** Epoch ms: the newest event of the data set is at or before it. */
  end: number;
  customer: string;
  instance: string;
}

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;
const STREAM = 0xd1b54a32d192ed03n;
const M1 = 0xbf58476d1ce4e5b9n;
const M2 = 0x94d049bb133111ebn;

/** The streams of hash(n, k). Interaction j (0..3) uses CLICK + j and ID_HI/ID_LO + j. */
const K = {
  RANK: 0,
  FIELDS: 1,
  TIME: 2,
  SEARCH_ID_HI: 3,
  SEARCH_ID_LO: 4,
  ENGAGEMENT: 5,
  DIMENSIONS: 6,
  FILTERS: 7,
  CLICK: 8,
  ID_HI: 16,
  ID_LO: 24,
} as const;

/** (seed * 64 + k) * STREAM mod 2^64: the stream's offset, a UInt64 literal in SQL. */
function offset(seed: number, k: number): bigint {
  return ((BigInt(seed) * 64n + BigInt(k)) * STREAM) & MASK;
}

// ---- JavaScript -------------------------------------------------------------------------------------------------

export function hash(seed: number, n: number, k: number): bigint {
  let x = (BigInt(n) * GOLDEN + offset(seed, k)) & MASK;
  x = ((x ^ (x >> 30n)) * M1) & MASK;
  x = ((x ^ (x >> 27n)) * M2) & MASK;
  return x ^ (x >> 31n);
}

/** h shifted right by `from` bits, modulo m, as a number (m < 2^32). */
const draw = (h: bigint, from: number, m: number): number => Number((h >> BigInt(from)) % BigInt(m));

/**
 * A Zipf distribution (s = ZIPF_S) over ranks 0..count-1 inverted: thresholds[r] is round(2^bits * P(rank <= r)) (the
 * last one 2^bits), integers that a double holds exactly; rank(u) for a uniform u in [0, 2^bits) is the first r with
 * u < thresholds[r], which is the number of thresholds <= u.
 */
function zipfCumulative(count: number, bits: number): Float64Array {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    cumulative[i] = total += 1 / Math.pow(i + 1, ZIPF_S);
  }
  const thresholds = cumulative.map((c) => Math.round((c / total) * 2 ** bits));
  thresholds[count - 1] = 2 ** bits;
  return thresholds;
}

let thresholds: Float64Array | undefined;

/** The phrases' ranks: zipfCumulative over PHRASES, out of 2^53. */
export function zipfThresholds(): Float64Array {
  return (thresholds ??= zipfCumulative(PHRASES, 53));
}

function zipfRank(u: number): number {
  const t = zipfThresholds();
  let lo = 0;
  let hi = PHRASES - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] <= u) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

const hex16 = (h: bigint) => h.toString(16).padStart(16, '0');
const uuid = (hi: bigint, lo: bigint) => {
  const [a, b] = [hex16(hi), hex16(lo)];
  return `${a.slice(0, 8)}-${a.slice(8, 12)}-${a.slice(12)}-${b.slice(0, 4)}-${b.slice(4)}`;
};

/** The bot verdict the service gives each user agent (BotDetector, from isbot): stored as `bot`. */
export function agentVerdicts(): { browsers: boolean[]; bots: boolean[] } {
  const detector = new BotDetector();
  return { browsers: BROWSERS.map((a) => detector.isBot(undefined, a)), bots: BOTS.map((a) => detector.isBot(undefined, a)) };
}

/** Search n as the generator defines it, with what the service derives from it (phrase, bot). */
export interface ScaleSearch {
  n: number;
  /** Its id, sent only when `idSent`. */
  id: string;
  idSent: boolean;
  rank: number;
  rawPhrase: string;
  language: string;
  hits: number;
  userAgent: string;
  ts: number;
  /** As sent: `attribute<operator>value`. */
  filters: string[];
  userToken: string;
  sessionId: string;
  country: string;
  /** Sorted, without repeats (as stored). */
  tags: string[];
}

let valueThresholds: Float64Array | undefined;

/** A filter value's rank: zipfCumulative over FILTER_VALUES, out of 2^VALUE_BITS. */
export function filterValueThresholds(): Float64Array {
  return (valueThresholds ??= zipfCumulative(FILTER_VALUES, VALUE_BITS));
}

/** Filter i (0..2): its attribute from bits 8i of hash(n, FILTERS), its value's rank from VALUE_BITS bits at 24 + 13i. */
function scaleFilter(f: bigint, i: number): string {
  const a = draw(f, 8 * i, FILTER_ATTRIBUTES.length);
  const u = draw(f, 24 + VALUE_BITS * i, 2 ** VALUE_BITS);
  return filterText(a, filterValueThresholds().filter((t) => t <= u).length);
}

export function scaleSearch(n: number, o: ScaleOptions): ScaleSearch {
  const rank = zipfRank(Number(hash(o.seed, n, K.RANK) >> 11n));
  const f = hash(o.seed, n, K.FIELDS);
  const botAgent = draw(f, 32, 100) < 5;
  const agents = botAgent ? BOTS : BROWSERS;
  const d = hash(o.seed, n, K.DIMENSIONS);
  const filters = hash(o.seed, n, K.FILTERS);
  const ts = o.end - MAX_DELAY_MS - draw(hash(o.seed, n, K.TIME), 0, SPAN_MS - MAX_DELAY_MS);
  const userToken = `user-${draw(d, 40, USERS)}`;
  const tags = [`tag-${draw(d, 16, TAGS)}`, ...(draw(d, 12, 2) === 1 ? [`tag-${draw(d, 24, TAGS)}`] : [])];
  return {
    n,
    id: uuid(hash(o.seed, n, K.SEARCH_ID_HI), hash(o.seed, n, K.SEARCH_ID_LO)),
    idSent: n % 5 < 3,
    rank,
    rawPhrase: rank % 7 === 0 ? `Phrase ${rank}` : `phrase ${rank}`,
    language: LANGUAGES[draw(f, 0, LANGUAGES.length)],
    hits: draw(f, 8, 10) === 0 ? 0 : 1 + draw(f, 16, 200),
    userAgent: agents[draw(f, 40, agents.length)],
    ts,
    filters: Array.from({ length: draw(d, 0, 4) }, (_, i) => scaleFilter(filters, i)),
    userToken,
    sessionId: userSession(userToken, ts),
    country: COUNTRIES[draw(d, 32, COUNTRIES.length)],
    tags: draw(d, 8, 10) < 3 ? [...new Set(tags)].sort() : [],
  };
}

/** The item of POST /events for a search. */
export function searchItem(s: ScaleSearch): Record<string, unknown> {
  return {
    ...(s.idSent ? { id: s.id } : {}),
    phrase: s.rawPhrase,
    language: s.language,
    hits: s.hits,
    userAgent: s.userAgent,
    ts: s.ts,
    ...(s.filters.length > 0 ? { filters: s.filters } : {}),
    userToken: s.userToken,
    sessionId: s.sessionId,
    country: s.country,
    ...(s.tags.length > 0 ? { tags: s.tags } : {}),
  };
}

const objectOf = (rank: number, position: number) => `sku-${(rank * 7919 + position) % OBJECTS}`;
const positionOf = (h: bigint) => Math.min(1 + draw(h, 0, 30), 1 + draw(h, 8, 30));
const delayOf = (h: bigint) => MIN_DELAY_MS + draw(h, 16, MAX_DELAY_MS - MIN_DELAY_MS + 1);

/**
 * The clicks and the conversion of a search, as items of POST /events. Only a search sent with an id that found
 * results and is not a bot's gets any: 0 to 3 clicks (CLICKS_CUMULATIVE), at positions 1 to 30 skewed to the top
 * (the smaller of two draws); a clicked search converts 1 time in 8 (a purchase of its first click's object, half
 * of them with a value in EUR).
 */
export function interactionItems(s: ScaleSearch, o: ScaleOptions, verdicts = agentVerdicts()): Array<Record<string, unknown>> {
  if (!s.idSent || s.hits === 0 || isBot(s, verdicts)) {
    return [];
  }
  const e = hash(o.seed, s.n, K.ENGAGEMENT);
  const clickDraw = draw(e, 0, 100);
  const clicks = CLICKS_CUMULATIVE.findIndex((c) => clickDraw < c);
  const converted = clicks > 0 && draw(e, 8, 8) === 0;
  const common = (j: number) => ({
    id: uuid(hash(o.seed, s.n, K.ID_HI + j), hash(o.seed, s.n, K.ID_LO + j)),
    searchId: s.id,
    userToken: `shopper-${draw(e, 40, SHOPPERS)}`,
    ts: s.ts + delayOf(hash(o.seed, s.n, K.CLICK + j)),
  });
  const items: Array<Record<string, unknown>> = [];
  for (let j = 0; j < clicks; j++) {
    const position = positionOf(hash(o.seed, s.n, K.CLICK + j));
    items.push({ type: 'click', ...common(j), objectId: objectOf(s.rank, position), position });
  }
  if (converted) {
    const valued = draw(e, 16, 2) === 0;
    items.push({
      type: 'conversion',
      ...common(clicks),
      objectId: objectOf(s.rank, positionOf(hash(o.seed, s.n, K.CLICK))),
      subtype: 'purchase',
      ...(valued ? { value: (100 + draw(e, 24, 19_900)) / 100, currency: 'EUR' } : {}),
    });
  }
  return items;
}

function isBot(s: ScaleSearch, verdicts: { browsers: boolean[]; bots: boolean[] }): boolean {
  const bots = BOTS.indexOf(s.userAgent);
  return bots >= 0 ? verdicts.bots[bots] : verdicts.browsers[BROWSERS.indexOf(s.userAgent)];
}

/** The items of searches 0..count-1, each followed by its interactions: what a client would POST. */
export function* scaleItems(count: number, o: ScaleOptions): Generator<Record<string, unknown>> {
  const verdicts = agentVerdicts();
  for (let n = 0; n < count; n++) {
    const s = scaleSearch(n, o);
    yield searchItem(s);
    yield* interactionItems(s, o, verdicts);
  }
}

// ---- SQL ---------------------------------------------------------------------------------------------------------

/**
 * hash(n, k) in SQL as aliased columns (`<name>_x`, `<name>_y`, `<name>_z`, `<name>`) of UInt64 `n`; `plus`, a
 * UInt64 expression, is added to the stream (a stream per interaction: k + j is offset(k) + j * STREAM).
 * UInt64 arithmetic in ClickHouse wraps modulo 2^64, as the masks do in JavaScript.
 */
export function hashSql(name: string, n: string, seed: number, k: number, plus?: string): string {
  const x = `${n} * ${GOLDEN} + ${offset(seed, k)}${plus ? ` + ${plus} * ${STREAM}` : ''}`;
  return [
    `${x} AS ${name}_x`,
    `bitXor(${name}_x, bitShiftRight(${name}_x, 30)) * ${M1} AS ${name}_y`,
    `bitXor(${name}_y, bitShiftRight(${name}_y, 27)) * ${M2} AS ${name}_z`,
    `bitXor(${name}_z, bitShiftRight(${name}_z, 31)) AS ${name}`,
  ].join(',\n  ');
}

/** draw() in SQL. */
const drawSql = (h: string, from: number, m: number) => `(bitShiftRight(${h}, ${from}) % ${m})`;

const hex16Sql = (h: string) => `leftPad(lower(hex(${h})), 16, '0')`;
/** uuid() in SQL: two UInt64 columns to a UUID. */
function uuidSql(hi: string, lo: string): string {
  const [a, b] = [hex16Sql(hi), hex16Sql(lo)];
  return `toUUID(concat(substring(${a}, 1, 8), '-', substring(${a}, 9, 4), '-', substring(${a}, 13, 4), '-',
    substring(${b}, 1, 4), '-', substring(${b}, 5, 12)))`;
}

const arraySql = (values: ReadonlyArray<string | boolean>) => `[${values.map((v) => (typeof v === 'string' ? `'${v}'` : v)).join(', ')}]`;

/** The rows of the Zipf lookup table (ASOF JOIN on `lo`): rank r covers [lo, next lo). */
export function zipfRows(): Array<{ k: number; lo: number; rank: number }> {
  const t = zipfThresholds();
  return Array.from({ length: PHRASES }, (_, r) => ({ k: 0, lo: r === 0 ? 0 : t[r - 1], rank: r }));
}

/**
 * Searches `from`..`from + count - 1` as a SELECT of `n, rank, id_hi, id_lo, id_sent, language, hits, bot, ts,
 * engagement` (`engagement` is hash(n, ENGAGEMENT); `ts` DateTime64(3)), `zipf` being the table of zipfRows. With
 * `interacting`, only the searches that may have interactions (sent with an id, found results, not a bot's).
 */
export function searchesSql(o: ScaleOptions, from: number, count: number, zipf: string, interacting = false): string {
  const verdicts = agentVerdicts();
  return `SELECT e.n AS n, z.rank AS rank, e.id_hi AS id_hi, e.id_lo AS id_lo, e.id_sent AS id_sent, e.language AS language,
    e.hits AS hits, e.bot AS bot, e.ts AS ts, e.engagement AS engagement${
      interacting
        ? ''
        : `,
    ${DIMENSION_COLUMNS.map((c) => `e.${c} AS ${c}`).join(', ')}`
    }
  FROM (
    SELECT number AS n, 0 AS k,
      ${hashSql('h_rank', 'number', o.seed, K.RANK)},
      bitShiftRight(h_rank, 11) AS u,
      ${hashSql('h_fields', 'number', o.seed, K.FIELDS)},
      ${hashSql('h_time', 'number', o.seed, K.TIME)},
      ${hashSql('id_hi', 'number', o.seed, K.SEARCH_ID_HI)},
      ${hashSql('id_lo', 'number', o.seed, K.SEARCH_ID_LO)},
      ${hashSql('engagement', 'number', o.seed, K.ENGAGEMENT)},
      number % 5 < 3 AS id_sent,
      arrayElement(${arraySql(LANGUAGES)}, ${drawSql('h_fields', 0, LANGUAGES.length)} + 1) AS language,
      if(${drawSql('h_fields', 8, 10)} = 0, 0, 1 + ${drawSql('h_fields', 16, 200)}) AS hits,
      if(${drawSql('h_fields', 32, 100)} < 5,
        arrayElement(${arraySql(verdicts.bots)}, ${drawSql('h_fields', 40, BOTS.length)} + 1),
        arrayElement(${arraySql(verdicts.browsers)}, ${drawSql('h_fields', 40, BROWSERS.length)} + 1)) AS bot,
      fromUnixTimestamp64Milli(toInt64(${o.end - MAX_DELAY_MS}) - toInt64(${drawSql('h_time', 0, SPAN_MS - MAX_DELAY_MS)}), 'UTC') AS ts
      ${interacting ? '' : `, ${dimensionsSql(o.seed)}`}
    FROM numbers(${from}, ${count})
    ${interacting ? 'WHERE id_sent AND hits > 0 AND NOT bot' : ''}
  ) AS e
  ASOF JOIN ${zipf} AS z ON e.k = z.k AND e.u >= z.lo`;
}

/** The dimension columns of searchesSql (scaleSearch's filters, user, session, country and tags). */
const DIMENSION_COLUMNS = ['filter_attributes', 'filter_operators', 'filter_values', 'user', 'day', 'country', 'tags'];

/** scaleSearch's dimensions in SQL, as the columns DIMENSION_COLUMNS over `number` and `ts` (scaleFilter's draws). */
function dimensionsSql(seed: number): string {
  const filter = (i: number) => ({
    a: `${drawSql('h_filters', 8 * i, FILTER_ATTRIBUTES.length)} + 1`,
    rank: `arrayCount(t -> t <= ${drawSql('h_filters', 24 + VALUE_BITS * i, 2 ** VALUE_BITS)}, [${filterValueThresholds().join(', ')}])`,
  });
  const filters = [0, 1, 2].map(filter);
  const slice = (values: string[]) => `arraySlice([${values.join(', ')}], 1, ${drawSql('h_dims', 0, 4)})`;
  const attribute = (a: string) => `arrayElement(${arraySql(FILTER_ATTRIBUTES)}, ${a})`;
  const operator = (a: string) => `arrayElement(${arraySql(FILTER_OPERATORS)}, ${a})`;
  const value = (f: { a: string; rank: string }) =>
    `if(${operator(f.a)} = ':', concat(${attribute(f.a)}, '-', toString(${f.rank})), toString((${f.rank} + 1) * 10))`;
  const tag = (from: number) => `concat('tag-', toString(${drawSql('h_dims', from, TAGS)}))`;
  return `${hashSql('h_dims', 'number', seed, K.DIMENSIONS)},
      ${hashSql('h_filters', 'number', seed, K.FILTERS)},
      ${slice(filters.map((f) => attribute(f.a)))} AS filter_attributes,
      ${slice(filters.map((f) => operator(f.a)))} AS filter_operators,
      ${slice(filters.map((f) => value(f)))} AS filter_values,
      ${drawSql('h_dims', 40, USERS)} AS user,
      intDiv(toUnixTimestamp64Milli(ts), ${DAY_MS}) AS day,
      arrayElement(${arraySql(COUNTRIES)}, ${drawSql('h_dims', 32, COUNTRIES.length)} + 1) AS country,
      if(${drawSql('h_dims', 8, 10)} < 3,
        arraySort(arrayDistinct(if(${drawSql('h_dims', 12, 2)} = 1, [${tag(16)}, ${tag(24)}], [${tag(16)}]))), []) AS tags`;
}

/** personalHash in SQL: the hash of `<customer>:<value>`. */
const personalHashSql = (value: string) => `lower(hex(SHA256(concat({customer:String}, ':', ${value}))))`;
const userTokenSql = "concat('user-', toString(user))";

/** The columns of search_events written, and their values over searchesSql (`customer`, `instance` parameters). */
export const SEARCH_EVENT_COLUMNS = [
  ['event_id', uuidSql('id_hi', 'id_lo')],
  ['customer', '{customer:String}'],
  ['instance', '{instance:String}'],
  ['ts', 'ts'],
  ['phrase', "concat('phrase ', toString(rank))"],
  ['raw_phrase', "if(rank % 7 = 0, concat('Phrase ', toString(rank)), concat('phrase ', toString(rank)))"],
  ['language', 'language'],
  ['hits', 'hits'],
  ['bot', 'bot'],
  ['session_hash', personalHashSql(`concat(${userTokenSql}, '-', toString(day))`)],
  ['source', "'http'"],
  ['topic', "''"],
  ['partition', '-1'],
  ['offset', '-1'],
  ['received_at', 'now64(3)'],
  ['message_hash', '0'],
  ['sign', '1'],
  ['intake_token', "''"],
  ['id_sent', 'id_sent'],
  ['filter_attributes', 'filter_attributes'],
  ['filter_operators', 'filter_operators'],
  ['filter_values', 'filter_values'],
  ['user_hash', personalHashSql(userTokenSql)],
  ['country', 'country'],
  ['tags', 'tags'],
] as const;

const positionSql = (h: string) => `least(1 + ${drawSql(h, 0, 30)}, 1 + ${drawSql(h, 8, 30)})`;
const delaySql = (h: string) => `${MIN_DELAY_MS} + ${drawSql(h, 16, MAX_DELAY_MS - MIN_DELAY_MS + 1)}`;
const objectSql = (h: string) => `concat('sku-', toString((rank * 7919 + ${positionSql(h)}) % ${OBJECTS}))`;

/**
 * interactionItems in SQL: over searchesSql(..., interacting = true), one row per interaction `j` (clicks first,
 * then the conversion), with the hashes INTERACTION_COLUMNS reads.
 */
export function interactionsSql(o: ScaleOptions, searches: string): string {
  const clicks = CLICKS_CUMULATIVE.slice(0, -1)
    .map((c, i) => `click_draw < ${c}, ${i}`)
    .join(', ');
  return `SELECT *,
      ${hashSql('h_click', 'n', o.seed, K.CLICK, 'toUInt64(j)')},
      ${hashSql('h_first', 'n', o.seed, K.CLICK)},
      ${hashSql('i_hi', 'n', o.seed, K.ID_HI, 'toUInt64(j)')},
      ${hashSql('i_lo', 'n', o.seed, K.ID_LO, 'toUInt64(j)')},
      j < clicks AS is_click,
      NOT is_click AND ${drawSql('engagement', 16, 2)} = 0 AS valued
    FROM (
      SELECT *, ${drawSql('engagement', 0, 100)} AS click_draw, multiIf(${clicks}, ${CLICKS_CUMULATIVE.length - 1}) AS clicks,
        clicks > 0 AND ${drawSql('engagement', 8, 8)} = 0 AS converted
      FROM (${searches})
    )
    ARRAY JOIN range(toUInt8(clicks + converted)) AS j`;
}

/** The columns of interactions written, and their values over interactionsSql. */
export const INTERACTION_COLUMNS = [
  ['interaction_id', uuidSql('i_hi', 'i_lo')],
  ['customer', '{customer:String}'],
  ['instance', '{instance:String}'],
  ['type', "if(is_click, 'click', 'conversion')"],
  ['search_id', uuidSql('id_hi', 'id_lo')],
  ['object_id', `if(is_click, ${objectSql('h_click')}, ${objectSql('h_first')})`],
  ['object_index', '0'],
  ['position', `if(is_click, ${positionSql('h_click')}, 0)`],
  ['subtype', "if(is_click, '', 'purchase')"],
  ['value', `if(valued, toDecimal64(100 + ${drawSql('engagement', 24, 19_900)}, 6) / 100, toDecimal64(0, 6))`],
  ['currency', "if(valued, 'EUR', '')"],
  ['ts', `fromUnixTimestamp64Milli(toUnixTimestamp64Milli(ts) + ${delaySql('h_click')}, 'UTC')`],
  // personalHash(customer, userToken)
  ['user_token_hash', personalHashSql(`concat('shopper-', toString(${drawSql('engagement', 40, SHOPPERS)}))`)],
  ['session_hash', "''"],
  ['origin', "'events'"],
  ['event_name', "''"],
  ['index_name', "''"],
  ['filters', '[]'],
  ['source', "'http'"],
  ['topic', "''"],
  ['partition', '-1'],
  ['offset', '-1'],
  ['message_hash', '0'],
  ['received_at', 'now64(3)'],
  ['intake_token', "''"],
] as const;
