/**
 * The optimal-string-alignment form of the Damerau-Levenshtein distance between `a` and `b`, counted over code
 * points (`fur`/`für` is 1, `ab`/`ba` is 1), or undefined when it is more than `max`. The embedded engine's
 * damerauLevenshteinDistance counts bytes (`fur`/`für` is 2), so the service computes it here, on the few phrases
 * its SQL prefilter keeps (docs/decisions/0059-suggestions.md).
 */
export function damerauLevenshtein(a: string, b: string, max: number): number | undefined {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) {
    return undefined;
  }
  // Three rows of the dynamic programme: the one before the previous (for a transposition), the previous, this.
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, before[j - 2] + 1);
      }
      row.push(d);
      smallest = Math.min(smallest, d);
    }
    if (smallest > max) {
      return undefined;
    }
    before = previous;
    previous = row;
  }
  const distance = previous[t.length];
  return distance <= max ? distance : undefined;
}

/** A phrase without its spaces and hyphens: two phrases equal so are suggestions of each other at distance 0. */
export function compact(phrase: string): string {
  return phrase.replace(/[ -]/g, '');
}
