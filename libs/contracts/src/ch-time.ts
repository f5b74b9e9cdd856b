/** DateTime64(3, 'UTC') text for JSONEachRow rows (a bare number would be read as seconds). */
export function chDateTime(ms: number = Date.now()): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

let lastMs = NaN;
let lastText = '';

/** chDateTime of a time asked for again and again (a batch's one receive time, once per row): the last one is kept. */
export function chDateTimeOften(ms: number): string {
  if (ms !== lastMs) {
    lastText = chDateTime(ms);
    lastMs = ms;
  }
  return lastText;
}

/** Milliseconds from a DateTime64 column read back as 'YYYY-MM-DD hh:mm:ss.sss' (UTC). */
export function fromChDateTime(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}
