import type { IncomingMessage } from 'http';
import type { AppConfig } from '@app/config';
import { NAME_PATTERN } from '@app/contracts';
import { refused } from './auth-failures';
import type { Principal } from './authenticators';
import type { Customer } from './customers.repository';

// Which customer and instance a request addresses: read by CredentialsGate before any credential is checked, and by
// AuthGuard after.

/** The customer a request addresses: SERVICE_CUSTOMER, or with BASE_DOMAIN the Host's label left of it. */
export function customerOf(req: IncomingMessage, config: AppConfig): string | undefined {
  if (!config.baseDomain) {
    return config.customer;
  }
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${config.baseDomain}`;
  const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : '';
  return NAME_PATTERN.test(label) ? label : undefined;
}

/**
 * The instance a request asks for (X-Service-Instance) when it names one, checked against the customer's instances
 * and the principal's; 401 when not allowed. Without the header, undefined: the route's default applies.
 */
export function requestedInstance(req: IncomingMessage, customer: Customer, principal?: Principal): string | undefined {
  const sent = req.headers['x-service-instance'];
  const instance = Array.isArray(sent) ? sent[0] : sent;
  if (instance === undefined) {
    return undefined;
  }
  if (!customer.instances.includes(instance)) {
    throw refused('unknownInstance');
  }
  if (principal?.instances && !principal.instances.includes(instance)) {
    throw refused('instanceNotAllowed');
  }
  return instance;
}
