import { ipLiteral, isPublicAddress, safeOrigin, webhookUrlProblem } from './address-policy';

const NOT_ABSOLUTE = 'webhookConfig.url must be an absolute http(s) URL or ""';
const NOT_PUBLIC = 'webhookConfig.url points to a loopback, private or link-local address';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback (whole 127/8)'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, low end'],
    ['172.31.255.255', 'private 172.16/12, high end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.1', 'documentation (reserved)'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique-local fc00::/7, low half'],
    ['fd12:3456:789a::1', 'unique-local fc00::/7, high half'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1 (deprecated ::/96, what the URL parser makes of [::127.0.0.1])'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['100::1', 'discard-only 100::/64'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['100.63.255.255', 'just below carrier-grade NAT'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address, judged as IPv4'],
  ])('accepts %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an IP address at all', () => {
    for (const value of ['', 'example.com', 'localhost', '1.2.3.4.5', '::g']) {
      expect(isPublicAddress(value)).toBe(false);
    }
  });
});

describe('ipLiteral', () => {
  it('returns the host of an IPv4 URL and the unbracketed host of an IPv6 URL', () => {
    expect(ipLiteral(new URL('http://10.0.0.1:8080/hook'))).toBe('10.0.0.1');
    expect(ipLiteral(new URL('https://[fe80::1]/hook'))).toBe('fe80::1');
  });

  it('returns undefined for a host name', () => {
    expect(ipLiteral(new URL('https://hooks.example.com/x'))).toBeUndefined();
    expect(ipLiteral(new URL('http://localhost/x'))).toBeUndefined();
  });

  it('sees through the short and numeric IPv4 spellings the URL parser normalises', () => {
    expect(ipLiteral(new URL('http://2130706433/'))).toBe('127.0.0.1');
    expect(ipLiteral(new URL('http://0x7f.1/'))).toBe('127.0.0.1');
  });
});

describe('webhookUrlProblem', () => {
  it('accepts "" (webhook disabled) whatever the flag', () => {
    expect(webhookUrlProblem('', false)).toBeUndefined();
    expect(webhookUrlProblem('', true)).toBeUndefined();
  });

  it('refuses a relative URL, garbage and a scheme other than http(s)', () => {
    for (const value of ['/hook', 'not a url', 'ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(webhookUrlProblem(value, false)).toBe(NOT_ABSOLUTE);
      expect(webhookUrlProblem(value, true)).toBe(NOT_ABSOLUTE);
    }
  });

  it('accepts http and https URLs to a host name or a public address', () => {
    expect(webhookUrlProblem('https://hooks.example.com/a?token=x', false)).toBeUndefined();
    expect(webhookUrlProblem('http://8.8.8.8:8080/a', false)).toBeUndefined();
    expect(webhookUrlProblem('http://[2606:4700:4700::1111]/a', false)).toBeUndefined();
  });

  it('refuses loopback, private, link-local and unique-local literals unless private networks are allowed', () => {
    const urls = [
      'http://127.0.0.1/',
      'http://127.1:8080/',
      'http://2130706433/',
      'http://10.1.2.3/',
      'http://192.168.0.10/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:10.0.0.1]/',
    ];
    for (const url of urls) {
      expect(webhookUrlProblem(url, false)).toBe(NOT_PUBLIC);
      expect(webhookUrlProblem(url, true)).toBeUndefined();
    }
  });

  it('refuses the IPv4-compatible spelling of loopback that the URL parser turns into ::7f00:1', () => {
    expect(webhookUrlProblem('http://[::127.0.0.1]/hook', false)).toBe(NOT_PUBLIC);
  });

  it('leaves host names such as localhost to the resolver (only literals are judged here)', () => {
    expect(webhookUrlProblem('http://localhost:3000/', false)).toBeUndefined();
  });
});

describe('safeOrigin', () => {
  it('keeps scheme, host and port only, so a secret in the path or query is never logged', () => {
    expect(safeOrigin('https://user:pw@hooks.example.com:8443/secret/path?token=abc#frag')).toBe('https://hooks.example.com:8443');
  });

  it('returns a placeholder for an invalid URL instead of the value', () => {
    expect(safeOrigin('not a url with secret')).toBe('(invalid URL)');
  });
});
