import * as ipaddr from 'ipaddr.js';

/** IPv6 global unicast (RFC 4291): everything outside it, e.g. the deprecated IPv4-compatible ::/96, is not public. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Only globally routable unicast addresses are public (ipaddr.js' range names the rest: private, loopback,
 * linkLocal, uniqueLocal, carrierGradeNat, unspecified, reserved, ...); an IPv6 address must also lie in 2000::/3.
 * IPv4-mapped IPv6 is judged as IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  const parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv4) {
    return parsed.range() === 'unicast';
  }
  if (parsed.isIPv4MappedAddress()) {
    return parsed.toIPv4Address().range() === 'unicast';
  }
  return parsed.range() === 'unicast' && parsed.match(GLOBAL_UNICAST);
}

/** The host of a URL as an IP literal, or undefined for a host name. */
export function ipLiteral(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) ? host : undefined;
}

/** Why a webhook URL is not acceptable, or undefined when it is ("" disables the webhook). */
export function webhookUrlProblem(value: string, allowPrivateNetworks: boolean, field = 'webhookConfig.url'): string | undefined {
  if (value === '') {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} must be an absolute http(s) URL or ""`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `${field} must be an absolute http(s) URL or ""`;
  }
  const literal = ipLiteral(url);
  if (literal && !allowPrivateNetworks && !isPublicAddress(literal)) {
    return `${field} points to a loopback, private or link-local address`;
  }
  return undefined;
}

/** scheme://host:port only: a webhook URL may carry a secret token in its path or query, never logged. */
export function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return '(invalid URL)';
  }
}
