/**
 * Deterministic search events for benchmarks: a long-tailed (Zipf) phrase distribution, 5 languages, 10 % zero
 * hits, about 5 % bot user agents. The same seed gives the same events in every process.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s, by inverting the cumulative weights. */
export function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    cumulative[i] = total += 1 / Math.pow(i + 1, s);
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
}

/** The exponent of every Zipf distribution of the benchmarks' data (phrases, filter values). */
export const ZIPF_S = 1.07;

export const LANGUAGES = ['de', 'en', 'fr', 'it', 'nl'];

/**
 * The dimensions of a search (issue 46; fixed, so that runs compare; docs/benchmarks/methods.md): 0 to 3 filters
 * (uniform) over 20 attributes (uniform), each attribute's value one of FILTER_VALUES drawn Zipf-distributed; `price`
 * and `rating` are numeric (`price<=<v>`, `rating>=<v>`), the others facets (`brand:brand-<rank>`). 30 % of searches
 * carry 1 or 2 tags of TAGS; every search a country of COUNTRIES (uniform), a user token of USERS and a session (the
 * user's day).
 */
export const FILTER_ATTRIBUTES = (
  'brand color size category material price rating gender season style pattern fit length width heel sleeve neckline ' +
  'occasion collection availability'
).split(' ');
const NUMERIC_OPERATORS: Record<string, string> = { price: '<=', rating: '>=' };
export const FILTER_OPERATORS = FILTER_ATTRIBUTES.map((a) => NUMERIC_OPERATORS[a] ?? ':');
export const FILTER_VALUES = 100;
export const TAGS = 10;
export const COUNTRIES = 'DE FR IT NL AT CH BE ES PL SE DK NO FI CZ PT IE GB US CA LU HU SK SI HR RO BG GR EE LV LT'.split(' ');
export const USERS = 1_000_000;
export const DAY_MS = 24 * 3_600_000;

/** A shopper's session: the user's day. */
export const userSession = (userToken: string, ts: number) => `${userToken}-${Math.floor(ts / DAY_MS)}`;

/** Filter `attribute` (an index of FILTER_ATTRIBUTES) with its value of Zipf rank `rank`, as sent. */
export function filterText(attribute: number, rank: number): string {
  const [name, operator] = [FILTER_ATTRIBUTES[attribute], FILTER_OPERATORS[attribute]];
  return `${name}${operator}${operator === ':' ? `${name}-${rank}` : (rank + 1) * 10}`;
}

export interface DimensionFields {
  filters?: string[];
  userToken: string;
  sessionId: string;
  country: string;
  tags?: string[];
}

/** The dimension fields of a search at `ts`, drawn from `random` (the scale sets draw the same from hashes). */
export function randomDimensions(random: () => number): (ts: number) => DimensionFields {
  const valueRank = zipf(FILTER_VALUES, ZIPF_S, random);
  const pick = (n: number) => Math.floor(random() * n);
  return (ts) => {
    const filters = Array.from({ length: pick(4) }, () => filterText(pick(FILTER_ATTRIBUTES.length), valueRank()));
    const userToken = `user-${pick(USERS)}`;
    const tags = random() < 0.3 ? [...new Set(Array.from({ length: 1 + pick(2) }, () => `tag-${pick(TAGS)}`))] : [];
    return {
      ...(filters.length > 0 ? { filters } : {}),
      userToken,
      sessionId: userSession(userToken, ts),
      country: COUNTRIES[pick(COUNTRIES.length)],
      ...(tags.length > 0 ? { tags } : {}),
    };
  };
}
export const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
export const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
];

export interface BenchEvent extends Partial<DimensionFields> {
  customer: string;
  instance: string;
  phrase: string;
  language: string;
  hits: number;
  userAgent: string;
  ts: number;
}

/** `count` events spread over the `spanMs` before `end`. */
export function* searchEvents(
  count: number,
  options: { seed?: number; phrases?: number; end?: number; spanMs?: number; customer?: string; dimensions?: boolean } = {},
): Generator<BenchEvent> {
  const random = mulberry32(options.seed ?? 42);
  const rank = zipf(options.phrases ?? 200_000, ZIPF_S, random);
  // Drawn from a stream of their own, so that the other fields are the same with and without them.
  const dimensions = options.dimensions ? randomDimensions(mulberry32((options.seed ?? 42) + 0x46)) : undefined;
  const end = options.end ?? Date.now();
  const span = options.spanMs ?? 60 * 60 * 1000;
  for (let i = 0; i < count; i++) {
    const r = rank();
    const event: BenchEvent = {
      customer: options.customer ?? 'bench',
      instance: 'live',
      phrase: r % 7 === 0 ? `Phrase ${r}` : `phrase ${r}`,
      language: LANGUAGES[Math.floor(random() * LANGUAGES.length)],
      hits: random() < 0.1 ? 0 : 1 + Math.floor(random() * 200),
      userAgent: random() < 0.05 ? BOTS[Math.floor(random() * BOTS.length)] : BROWSERS[Math.floor(random() * BROWSERS.length)],
      ts: end - Math.floor(random() * span),
    };
    if (dimensions) {
      Object.assign(event, dimensions(event.ts));
    }
    yield event;
  }
}
