import { signRequest } from './hmac';

describe('signRequest', () => {
  // Vector computed independently: printf '%s' 'abc123:{"a":1}' | openssl dgst -sha256 -hmac 'secret'
  it('matches openssl for nonce + ":" + body', () => {
    expect(signRequest('secret', 'abc123', '{"a":1}')).toBe(OPENSSL_VECTOR);
  });

  it('signs an absent body as "nonce:"', () => {
    expect(signRequest('secret', 'abc123')).toBe(signRequest('secret', 'abc123', ''));
    expect(signRequest('secret', 'abc123')).not.toBe(signRequest('secret', 'abc123', ' '));
  });
});

const OPENSSL_VECTOR = 'b111ffbae15658b9a87179349ac75daafbc81d9477e6f2ce842375b5168f090b';
