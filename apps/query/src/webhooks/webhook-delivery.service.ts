import { Injectable, Logger } from '@nestjs/common';
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AppConfig } from '@app/config';
import { MetricsService } from '@app/metrics';
import { NotificationsRepository } from '@app/notifications';
import { WebhookUrlRepository } from './webhook-url.repository';
import { ipLiteral, isPublicAddress, safeOrigin } from './address-policy';
import { HostResolver } from './host-resolver';

export type WebhookAction = 'create' | 'update' | 'remove' | 'delete';

export interface WebhookCall {
  customer: string;
  instance: string;
  type: string;
  ids: string[];
  action: WebhookAction;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'disabled' | 'filtered';

/**
 * The webhook: one POST per change, synchronous inside the save, no retry, no redirects, a timeout of
 * WEBHOOK_TIMEOUT_MS. A failure is logged and recorded as a notification; the save itself still succeeds.
 * Unless WEBHOOK_ALLOW_PRIVATE_NETWORKS, the address actually connected to must be public (checked in the DNS
 * lookup of the connection, so a host name resolving to 10.0.0.1 is refused too).
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger('Webhook');
  private readonly publicOnlyLookup: LookupFunction;

  constructor(
    resolver: HostResolver,
    private readonly config: AppConfig,
    private readonly webhookUrls: WebhookUrlRepository,
    private readonly notifications: NotificationsRepository,
    private readonly metrics: MetricsService,
  ) {
    this.publicOnlyLookup = publicOnly(resolver);
  }

  /** One delivery per change that changed something: a call without ids sends and counts nothing. */
  async deliver(call: WebhookCall): Promise<DeliveryOutcome | 'nothing'> {
    if (call.ids.length === 0) {
      return 'nothing';
    }
    const outcome = await this.attempt(call);
    this.metrics.webhookDeliveries.inc({ outcome });
    return outcome;
  }

  /**
   * One POST of an alert (issue 30) to the instance's alert URL under the webhook's rules: the address policy, the
   * timeout, no retry, no redirects; a failure is logged and recorded as a `webhook-failed` notification.
   */
  async deliverAlert(customer: string, instance: string, url: string, body: Record<string, unknown>): Promise<DeliveryOutcome> {
    const outcome = await this.send(
      customer,
      instance,
      url,
      JSON.stringify({ customer, instance, ...body }),
      { name: 'Alert', summary: String(body.alert) },
      { alert: body.alert },
    );
    this.metrics.webhookDeliveries.inc({ outcome });
    return outcome;
  }

  private async attempt(call: WebhookCall): Promise<DeliveryOutcome> {
    const url = await this.webhookUrls.webhookUrl(call.customer, call.instance);
    if (!url) {
      return 'disabled';
    }
    const narrowed = this.config.webhookEntityTypes?.[call.instance];
    if (narrowed && !narrowed.includes(call.type)) {
      return 'filtered';
    }
    const summary = `${call.type} ${call.action} of ${call.ids.length}`;
    return this.send(
      call.customer,
      call.instance,
      url,
      JSON.stringify(call),
      { name: 'Webhook', summary },
      {
        type: call.type,
        action: call.action,
        ids: call.ids,
      },
    );
  }

  /** One POST; a failure is logged (the URL's origin only: its path may hold a token) and recorded. */
  private async send(
    customer: string,
    instance: string,
    url: string,
    body: string,
    what: { name: 'Webhook' | 'Alert'; summary: string },
    details: Record<string, unknown>,
  ): Promise<DeliveryOutcome> {
    try {
      await this.post(url, body);
      return 'delivered';
    } catch (err) {
      const origin = safeOrigin(url);
      this.logger.warn(`${what.name.toLowerCase()} delivery to ${origin} failed (${what.summary}): ${(err as Error).message}`);
      await this.notifications
        .record(customer, instance, 'webhook-failed', `${what.name} delivery to ${origin} failed: ${publicReason(err)}`, details)
        .catch((e: unknown) => this.logger.error(`could not record the failed delivery: ${(e as Error).message}`));
      return 'failed';
    }
  }

  private post(target: string, body: string): Promise<void> {
    const url = new URL(target);
    const allowPrivate = this.config.webhookAllowPrivateNetworks;
    const literal = ipLiteral(url);
    if (literal && !allowPrivate && !isPublicAddress(literal)) {
      return Promise.reject(new NotPublic(`${literal} is not a public address`));
    }
    const timeoutMs = this.config.webhookTimeoutMs;
    return new Promise<void>((resolve, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      const req = transport.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'search-analytics-webhook/1',
          },
          lookup: allowPrivate ? undefined : this.publicOnlyLookup,
          agent: false,
        },
        (res) => {
          res.resume();
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve();
          } else {
            reject(new Answered(status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`));
          }
        },
      );
      const timer = setTimeout(() => req.destroy(new Answered(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => reject(err));
      req.end(body);
    });
  }
}

/** A delivery refused because its address is not public; its message (the address) goes to the log only. */
class NotPublic extends Error {}

/** A delivery's own failure, answered by the receiver or the clock (its status, a timeout): shown as it is. */
class Answered extends Error {}

/**
 * The reason a notification shows (anyone with notifications:read reads it): what the receiver answered, or a
 * generic reason. What the service's resolver or network said (an internal address, a DNS error code) could map
 * its network for a reader, so it goes to the log only (docs/security.md).
 */
function publicReason(err: unknown): string {
  if (err instanceof NotPublic) {
    return 'the address is not public';
  }
  if (err instanceof Answered) {
    return err.message;
  }
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && UNREACHED.has(code) ? 'the host did not answer' : 'the connection failed';
}

/** Errors of a name that resolves to nothing or of a host that does not take the connection. */
const UNREACHED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** A lookup for connections that may only reach public addresses: every resolved address must be public. */
const publicOnly =
  (resolver: HostResolver): LookupFunction =>
  (hostname, options, callback) => {
    resolver.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        return callback(err, '', 0);
      }
      const list = addresses;
      const refused = list.find((a) => !isPublicAddress(a.address));
      if (list.length === 0 || refused) {
        return callback(new NotPublic(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address`), '', 0);
      }
      if (options.all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      } else {
        callback(null, list[0].address, list[0].family);
      }
    });
  };
