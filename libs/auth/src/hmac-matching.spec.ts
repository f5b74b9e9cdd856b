import { signRequest, signatureMatches } from './hmac';

const SECRET = 'secret';
const NONCE = 'abc123';
// printf '%s' 'abc123:{"a":1}' | openssl dgst -sha256 -hmac 'secret' (the vector of hmac.spec.ts)
const OPENSSL_VECTOR = 'b111ffbae15658b9a87179349ac75daafbc81d9477e6f2ce842375b5168f090b';
const BODY = Buffer.from('{"a":1}');

/** The signature bytes as the authenticator gets them from the X-Service-Hash header (hex, either case). */
const fromHex = (hex: string) => Buffer.from(hex, 'hex');

describe('signatureMatches', () => {
  it('accepts the signature of exactly this secret, nonce and body', () => {
    expect(signatureMatches(SECRET, NONCE, BODY, fromHex(OPENSSL_VECTOR))).toBe(true);
  });

  it('accepts a signature sent in uppercase hex', () => {
    expect(signatureMatches(SECRET, NONCE, BODY, fromHex(OPENSSL_VECTOR.toUpperCase()))).toBe(true);
  });

  it('refuses the signature when the secret, the nonce or a single body byte differs', () => {
    const provided = fromHex(OPENSSL_VECTOR);
    expect(signatureMatches('secret2', NONCE, BODY, provided)).toBe(false);
    expect(signatureMatches(SECRET, 'abc124', BODY, provided)).toBe(false);
    expect(signatureMatches(SECRET, NONCE, Buffer.from('{"a":2}'), provided)).toBe(false);
    expect(signatureMatches(SECRET, NONCE, Buffer.from('{"a":1} '), provided)).toBe(false);
  });

  it('refuses a signature with one bit flipped', () => {
    const provided = fromHex(OPENSSL_VECTOR);
    provided[31] ^= 1;
    expect(signatureMatches(SECRET, NONCE, BODY, provided)).toBe(false);
  });

  it('refuses a signature of the wrong length without throwing (timingSafeEqual would throw)', () => {
    const full = fromHex(OPENSSL_VECTOR);
    const wrong = [Buffer.alloc(0), full.subarray(0, 31), Buffer.concat([full, Buffer.from([0])]), fromHex(OPENSSL_VECTOR.slice(0, 63))];
    for (const provided of wrong) {
      expect(() => signatureMatches(SECRET, NONCE, BODY, provided)).not.toThrow();
      expect(signatureMatches(SECRET, NONCE, BODY, provided)).toBe(false);
    }
  });

  it('refuses the hex text itself passed as bytes: the header must be hex-decoded first', () => {
    expect(signatureMatches(SECRET, NONCE, BODY, Buffer.from(OPENSSL_VECTOR, 'utf8'))).toBe(false);
  });

  it('matches a string body signed by the client against its UTF-8 bytes received by the server', () => {
    const text = '{"q":"Größe 42 👟"}';
    const signature = fromHex(signRequest(SECRET, NONCE, text));
    expect(signatureMatches(SECRET, NONCE, Buffer.from(text, 'utf8'), signature)).toBe(true);
    expect(signatureMatches(SECRET, NONCE, Buffer.from(text, 'latin1'), signature)).toBe(false);
  });

  it('covers the exact body bytes, also when they are not valid UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const signature = fromHex(signRequest(SECRET, NONCE, bytes));
    expect(signatureMatches(SECRET, NONCE, bytes, signature)).toBe(true);
    // Decoding and re-encoding replaces the bad bytes (U+FFFD): a different body, so no match.
    expect(signatureMatches(SECRET, NONCE, Buffer.from(bytes.toString('utf8'), 'utf8'), signature)).toBe(false);
  });

  it('matches a request without a body (empty bytes) against the signature of "nonce:"', () => {
    expect(signatureMatches(SECRET, NONCE, Buffer.alloc(0), fromHex(signRequest(SECRET, NONCE)))).toBe(true);
  });
});
