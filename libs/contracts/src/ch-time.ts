let lastMs = NaN;
let lastText = '';

/**
 * DateTime64(3, 'UTC') text for JSONEachRow rows (a bare number would be read as seconds). The last answer is kept:
 * a batch asks for its one receive time once per row.
 */
export function chDateTime(ms: number = Date.now()): string {
  if (ms !== lastMs) {
    const iso = new Date(ms).toISOString();
    lastText = `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
    lastMs = ms;
  }
  return lastText;
}

/** Milliseconds from a DateTime64 column read back as 'YYYY-MM-DD hh:mm:ss.sss' (UTC). */
export function fromChDateTime(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}
