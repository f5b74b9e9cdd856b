import { loadConfig } from '@app/config';
import { clientKey, FailedAuthLimiter } from './failed-auth.limiter';

describe('clientKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:bbbb:cccc:dddd:eeee', '2001:db8:1:2::/64'],
  ])('counts %s as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe('FailedAuthLimiter', () => {
  it('makes an address wait once it reaches the limit, others not, and never with the limit off', () => {
    const limiter = new FailedAuthLimiter(loadConfig({ AUTH_FAILURES_PER_MINUTE: '2' }));
    limiter.recordFailure('2001:db8::1');
    expect(limiter.retryAfter('2001:db8::1')).toBe(0);
    limiter.recordFailure('2001:db8::2');
    expect(limiter.retryAfter('2001:db8::1')).toBeGreaterThan(55);
    expect(limiter.retryAfter('2001:db8:0:1::1')).toBe(0);
    const off = new FailedAuthLimiter(loadConfig({ AUTH_FAILURES_PER_MINUTE: '0' }));
    for (let i = 0; i < 5; i++) {
      off.recordFailure('192.0.2.1');
    }
    expect(off.retryAfter('192.0.2.1')).toBe(0);
  });
});

describe('FailedAuthLimiter.attempt', () => {
  it('counts an attempt when it starts, so attempts in flight at once reach the limit, and takes back one that succeeds', () => {
    const limiter = new FailedAuthLimiter(loadConfig({ AUTH_FAILURES_PER_MINUTE: '3' }));
    const first = limiter.attempt('192.0.2.9');
    limiter.attempt('192.0.2.9');
    expect(limiter.retryAfter('192.0.2.9')).toBe(0);
    expect(limiter.attempt('192.0.2.9')).toBeDefined();
    // Three hashes still running: the fourth waits, though none has failed yet.
    expect(limiter.attempt('192.0.2.9')).toBeUndefined();
    expect(limiter.retryAfter('192.0.2.9')).toBeGreaterThan(0);
    first?.succeeded();
    expect(limiter.retryAfter('192.0.2.9')).toBe(0);
  });
});
