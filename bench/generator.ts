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

export const LANGUAGES = ['de', 'en', 'fr', 'it', 'nl'];
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

export interface BenchEvent {
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
  options: { seed?: number; phrases?: number; end?: number; spanMs?: number; customer?: string } = {},
): Generator<BenchEvent> {
  const random = mulberry32(options.seed ?? 42);
  const rank = zipf(options.phrases ?? 200_000, 1.07, random);
  const end = options.end ?? Date.now();
  const span = options.spanMs ?? 60 * 60 * 1000;
  for (let i = 0; i < count; i++) {
    const r = rank();
    yield {
      customer: options.customer ?? 'bench',
      instance: 'live',
      phrase: r % 7 === 0 ? `Phrase ${r}` : `phrase ${r}`,
      language: LANGUAGES[Math.floor(random() * LANGUAGES.length)],
      hits: random() < 0.1 ? 0 : 1 + Math.floor(random() * 200),
      userAgent: random() < 0.05 ? BOTS[Math.floor(random() * BOTS.length)] : BROWSERS[Math.floor(random() * BROWSERS.length)],
      ts: end - Math.floor(random() * span),
    };
  }
}
