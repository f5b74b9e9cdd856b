import { createHmac, timingSafeEqual } from 'node:crypto';

/** hex HMAC-SHA256 over `nonce + ':' + body`, keyed with the API key's secret (the signature of docs/hmac.md). */
export function signRequest(secret: string, nonce: string, body: Buffer | string = ''): string {
  return createHmac('sha256', secret).update(`${nonce}:`).update(body).digest('hex');
}

/** Constant-time comparison of a hex signature with the one computed for `secret`. */
export function signatureMatches(secret: string, nonce: string, body: Buffer, provided: Buffer): boolean {
  const expected = createHmac('sha256', secret).update(`${nonce}:`).update(body).digest();
  return expected.length === provided.length && timingSafeEqual(expected, provided);
}
