import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { AuthError, RetryLaterError } from '@app/errors';
import { customerOf, requestedInstance } from './addressed';
import { refused, type AuthFailure } from './auth-failures';
import { COLLECTOR_API_KEY, COLLECTOR_APP_ID, collectorParam, hasServiceCredentials } from './algolia-credentials';
import {
  AnalyticsKeyAuthenticator,
  BasicAuthenticator,
  CollectorAuthenticator,
  HmacAuthenticator,
  type HmacHeaders,
  type Principal,
} from './authenticators';
import { CustomersRepository, type Customer } from './customers.repository';
import { CollectedRows } from './collected-rows';
import { COLLECT_BUDGET, tooManyMessage } from './customer-throttler.guard';
import { clientAddress, clientKey, FailedAuthLimiter } from './failed-auth.limiter';
import { JwtAuthenticator } from './jwt.authenticator';
import { ProvisioningService } from './provisioning.service';

/**
 * What the gate decided about a request from its headers: the customer, and the credential's principal, or for HMAC
 * the checked headers whose signature the body's bytes must still match.
 */
export interface Admission {
  customer: Customer;
  principal?: Principal;
  hmac?: HmacHeaders;
  /** A collector key's request (POST /1/events): the request's Origin when the key grants it CORS. */
  corsOrigin?: string;
}

const MINUTE_MS = 60_000; // the window of COLLECT_PER_MINUTE

declare module 'http' {
  interface IncomingMessage {
    admission?: Admission;
  }
}

/**
 * Authentication in two steps, so a request without valid credentials costs no body:
 * - `admit`, before a byte of the body is read: the address's failure limit, the customer, Basic (hashed in
 *   PasswordChecks' workers, counted as a failure from its start), JWT, the HMAC headers' form and a nonce already
 *   used, and the instance asked for;
 * - `verify`, once the body's bytes are in: the HMAC signature over them.
 * Every failure counts against the client address (FailedAuthLimiter): beyond its limit, 429 before any work.
 */
@Injectable()
export class CredentialsGate {
  constructor(
    private readonly config: AppConfig,
    private readonly customers: CustomersRepository,
    private readonly hmac: HmacAuthenticator,
    private readonly basic: BasicAuthenticator,
    private readonly jwt: JwtAuthenticator,
    private readonly collector: CollectorAuthenticator,
    private readonly analyticsKeys: AnalyticsKeyAuthenticator,
    private readonly failures: FailedAuthLimiter,
    private readonly provisioning: ProvisioningService,
    @InjectThrottlerStorage() private readonly throttles: ThrottlerStorage,
    private readonly collectedRows: CollectedRows,
  ) {}

  async admit(req: IncomingMessage): Promise<Admission> {
    const address = clientAddress(req);
    this.checkFailures(address);
    const customer = await this.counted(address, () => this.customerOf(req));
    // Again once the customer is read: requests that arrived together and waited for the same read see the failures
    // of those answered before them, so the limit holds for a burst too.
    this.checkFailures(address);
    const [scheme, value] = (req.headers.authorization ?? '').split(' ', 2);
    let admission: Admission;
    if (scheme.toLowerCase() === 'basic') {
      // A password to hash counts as a failure from its start, so attempts sent at once cannot outrun the limit; a
      // match takes it back. A request that joins a hash already running, or finds the password remembered, hashes
      // nothing: it counts only when it fails.
      let hashed = false;
      const startHash = () => {
        hashed = true;
        return this.failures.attempt(address) ?? this.checkFailures(address);
      };
      try {
        admission = { customer, principal: await this.basic.authenticate(value ?? '', customer, startHash) };
        // Generated credentials used for the first time: recorded before the answer (once; nothing otherwise).
        if (customer.basicPending) {
          await this.provisioning.basicSignedIn(customer);
        }
      } catch (err) {
        if (err instanceof AuthError && !hashed) {
          this.failures.recordFailure(address);
        }
        throw err;
      }
    } else {
      admission = await this.counted(address, () => {
        if (!req.headers.authorization) {
          // An Algolia key alone, on a route of neither kind: say which routes it is for.
          if (!hasServiceCredentials(req) && collectorParam(req, COLLECTOR_API_KEY) !== undefined) {
            throw refused('algoliaKeyElsewhere');
          }
          return { customer, hmac: this.hmac.headers(req, customer) };
        }
        if (scheme.toLowerCase() === 'bearer') {
          return { customer, principal: this.jwt.authenticate(value ?? '', customer) };
        }
        throw refused('unsupportedScheme');
      });
    }
    await this.counted(address, () => requestedInstance(req, customer, admission.principal));
    req.admission = admission;
    return admission;
  }

  /**
   * POST /1/events (the Insights protocol): a collector key, the only credential accepted there (401 for anything
   * else: an HMAC key's secret, Basic, a JWT), of the customer the application id names (with BASE_DOMAIN it must be
   * the Host's). An Origin the key does not list: 403, and no CORS grant. A failed key counts against the address, a
   * refused origin does not (a page the shop forgot to list, not a guess).
   */
  async admitCollector(req: IncomingMessage): Promise<Admission> {
    const address = clientAddress(req);
    this.checkFailures(address);
    const { customer, principal } = await this.counted(address, async () => {
      const apiKey = collectorParam(req, COLLECTOR_API_KEY);
      if (!collectorParam(req, COLLECTOR_APP_ID) || !apiKey) {
        throw refused('collectorMissing');
      }
      const customer = await this.applicationCustomer(req, address, 'collectorApplication');
      return { customer, principal: await this.collector.authenticate(apiKey, customer) };
    });
    // A page of an origin the key does not list is the shop's setting, not a guess: not counted as a failure.
    const origin = req.headers.origin;
    if (origin !== undefined && principal.origins.length > 0 && !principal.origins.includes(origin)) {
      throw new AuthError('forbidden', 'origin not allowed', 'Origin not allowed: this collector key is for pages of other origins');
    }
    const admission: Admission = { customer, principal, corsOrigin: origin };
    req.admission = admission;
    return admission;
  }

  /**
   * `GET /2/...` (Algolia's Analytics API): an analytics key as Algolia's clients send it (X-Algolia-Application-Id and
   * X-Algolia-API-Key, headers or query string), or the service's own credentials. A failed key counts.
   */
  async admitAnalytics(req: IncomingMessage): Promise<Admission> {
    const apiKey = collectorParam(req, COLLECTOR_API_KEY);
    if (apiKey === undefined && hasServiceCredentials(req)) {
      return this.admit(req);
    }
    const address = clientAddress(req);
    this.checkFailures(address);
    const admission = await this.counted(address, async () => {
      if (apiKey === undefined) {
        throw refused('analyticsMissing');
      }
      const customer = await this.applicationCustomer(req, address, 'analyticsApplication');
      return { customer, principal: await this.analyticsKeys.authenticate(apiKey, customer) };
    });
    req.admission = admission;
    return admission;
  }

  /**
   * Counts an admitted request against COLLECT_PER_MINUTE for its client address (IPv6: per /64) before its body is
   * read: beyond the limit, 429 with Retry-After, and the connection closes unread (the throttler's storage, where
   * CustomerThrottlerGuard counts every other route), and refuses it as well when its address has spent its
   * COLLECT_ROWS_PER_MINUTE. Called once the request's CORS grant is set, so that the page can read the 429's
   * Retry-After.
   */
  async countCollected(req: IncomingMessage): Promise<void> {
    this.collectedRows.refuseSpent(req);
    const address = clientAddress(req);
    const limit = this.config.collectPerMinute;
    if (limit === 0) {
      return;
    }
    const { isBlocked, timeToBlockExpire } = await this.throttles.increment(
      `collect:${clientKey(address)}`,
      MINUTE_MS,
      limit,
      MINUTE_MS,
      'default',
    );
    if (isBlocked) {
      throw new RetryLaterError(tooManyMessage(limit, COLLECT_BUDGET), Math.max(1, timeToBlockExpire));
    }
  }

  /**
   * Whether a preflight of POST /1/events from the request's Origin is granted: it carries no credentials, so it is
   * answered from the collector key named in its query string (its origins); without one (or with one unknown here),
   * for any origin, leaving the decision to the POST. Never counted as a failure.
   */
  async preflightAllows(req: IncomingMessage): Promise<boolean> {
    const origin = req.headers.origin;
    const apiKey = collectorParam(req, COLLECTOR_API_KEY);
    const customer = apiKey ? await this.applicationOf(req) : undefined;
    if (!customer || !apiKey || origin === undefined) {
      return true;
    }
    try {
      const { origins } = await this.collector.authenticate(apiKey, customer);
      return origins.length === 0 || origins.includes(origin);
    } catch (err) {
      if (err instanceof AuthError) {
        return true;
      }
      throw err;
    }
  }

  /** The principal of an admitted request: for HMAC, the key whose signature `body` matches. */
  async verify(req: IncomingMessage, body: Buffer): Promise<{ customer: Customer; principal: Principal }> {
    const admission = req.admission ?? (await this.admit(req));
    if (!admission.principal) {
      const signed = admission.hmac as HmacHeaders;
      admission.principal = await this.counted(clientAddress(req), () => this.hmac.verify(signed, body, admission.customer));
    }
    return { customer: admission.customer, principal: admission.principal };
  }

  /** The customer `X-Algolia-Application-Id` names (with BASE_DOMAIN it must be the Host's), if any. */
  private async applicationOf(req: IncomingMessage): Promise<Customer | undefined> {
    const appId = collectorParam(req, COLLECTOR_APP_ID);
    return appId !== undefined && appId === customerOf(req, this.config) ? this.customers.find(appId) : undefined;
  }

  /** applicationOf, or a 401 `rule`; then the address's failures again, as in admit (a burst sees its own). */
  private async applicationCustomer(req: IncomingMessage, address: string | undefined, rule: AuthFailure): Promise<Customer> {
    const customer = await this.applicationOf(req);
    if (!customer) {
      throw refused(rule);
    }
    this.checkFailures(address);
    return customer;
  }

  /** 429 with Retry-After for an address that has used up its failed authentications. */
  private checkFailures(address: string | undefined): never | { succeeded(): void } {
    const wait = this.failures.retryAfter(address);
    if (wait > 0) {
      throw new RetryLaterError(`Too many failed authentications from this address; retry in ${wait} s`, wait);
    }
    return { succeeded: () => undefined };
  }

  private async customerOf(req: IncomingMessage): Promise<Customer> {
    const name = customerOf(req, this.config);
    if (!name) {
      throw refused('unknownCustomer', 'the Host is not a customer label of BASE_DOMAIN');
    }
    const customer = await this.customers.find(name);
    if (!customer) {
      throw refused('unknownCustomer');
    }
    return customer;
  }

  /** Runs a check; an authentication failure it throws counts against the client address. */
  private async counted<T>(address: string | undefined, check: () => T | Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (err) {
      if (err instanceof AuthError) {
        this.failures.recordFailure(address);
      }
      throw err;
    }
  }
}
