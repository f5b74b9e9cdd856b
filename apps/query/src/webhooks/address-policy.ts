import * as ipaddr from 'ipaddr.js';

/**
 * Only globally routable unicast addresses are public (ipaddr.js' range names the rest: private, loopback,
 * linkLocal, uniqueLocal, carrierGradeNat, unspecified, reserved, ...). IPv4-mapped IPv6 is judged as IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP literal, or undefined for a host name. */
export function ipLiteral(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) ? host : undefined;
}

/** Why a webhook URL is not acceptable, or undefined when it is ("" disables the webhook). */
export function webhookUrlProblem(value: string, allowPrivateNetworks: boolean): string | undefined {
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'webhookConfig.url must be an absolute http(s) URL or ""';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'webhookConfig.url must be an absolute http(s) URL or ""';
  const literal = ipLiteral(url);
  if (literal && !allowPrivateNetworks && !isPublicAddress(literal)) {
    return 'webhookConfig.url points to a loopback, private or link-local address';
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
