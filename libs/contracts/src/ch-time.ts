/** DateTime64(3, 'UTC') text for JSONEachRow rows (a bare number would be read as seconds). */
export function chDateTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Milliseconds from a DateTime64 column read back as 'YYYY-MM-DD hh:mm:ss.sss' (UTC). */
export function fromChDateTime(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}
