import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'http';
import { LRUCache } from 'lru-cache';
import { ApiKeysRepository, isAnalyticsKey, isCollectorKey, type ApiKey } from './api-keys.repository';
import type { AuthScheme } from './auth-context';
import { RetryLaterError } from '@app/errors';
import { refused } from './auth-failures';
import type { Customer } from './customers.repository';
import { signatureMatches } from './hmac';
import { HASH_PATTERN, NONCE_PATTERN } from './auth-headers';
import { NoncesRepository } from './nonces.repository';
import { PasswordChecks } from './password-checks';
import { PERMISSIONS, type Permission } from './permissions';

export interface Principal {
  scheme: AuthScheme;
  principal: string;
  permissions: ReadonlySet<Permission>;
  /** Instances the credential may act for; undefined = all of the customer's. */
  instances?: readonly string[];
}

const ALL_PERMISSIONS: ReadonlySet<Permission> = new Set(PERMISSIONS);

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The HMAC headers of a request, checked for their form: what is known of an HMAC request before its body. */
export interface HmacHeaders {
  nonce: string;
  hash: Buffer;
}

/**
 * HMAC: the server tries the customer's active keys; the matching key's permissions apply. In two steps: the
 * headers (their presence and form, a nonce already used) before the body is read, the signature over the body's
 * bytes after.
 */
@Injectable()
export class HmacAuthenticator {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly nonces: NoncesRepository,
  ) {}

  headers(req: IncomingMessage, customer: Customer): HmacHeaders {
    const nonce = header(req, 'x-service-nonce');
    const hash = header(req, 'x-service-hash');
    if (!nonce && !hash) {
      throw refused('noCredentials');
    }
    if (!hash) {
      throw refused('hashMissing');
    }
    if (!nonce) {
      throw refused('nonceMissing');
    }
    if (!NONCE_PATTERN.test(nonce)) {
      throw refused('nonceForm');
    }
    if (!HASH_PATTERN.test(hash)) {
      throw refused('hashForm');
    }
    if (this.nonces.seen(customer.customer, nonce)) {
      throw refused('nonceUsed');
    }
    return { nonce, hash: Buffer.from(hash, 'hex') };
  }

  async verify(signed: HmacHeaders, body: Buffer, customer: Customer): Promise<Principal> {
    // Every active key is tried (no early exit), so the time taken does not tell which key matched.
    // A collector key's secret is public by design (shoppers' browsers send it), and an analytics key's travels as it
    // is: neither signs a request.
    const keys = (await this.keys.activeKeys(customer.customer)).filter((key) => !isCollectorKey(key) && !isAnalyticsKey(key));
    const match = keys.filter((key) => signatureMatches(key.secret, signed.nonce, body, signed.hash))[0];
    if (!match) {
      throw refused('noKeyMatches');
    }
    if (!(await this.nonces.use(customer.customer, signed.nonce))) {
      throw refused('nonceUsed', 'used before, by this process or another');
    }
    return { scheme: 'hmac', principal: match.id, permissions: new Set(match.permissions), instances: match.instances };
  }
}

/** A collector key as it authenticates `POST /1/events`: its principal and the origins CORS is granted to. */
export interface CollectorPrincipal extends Principal {
  /** Empty: any origin. */
  origins: readonly string[];
}

/**
 * The key among `keys` whose secret is `secret`: digests compared in constant time with every key (no early exit), so
 * neither the time taken nor the secret's length tells which key, if any, matched.
 */
function keyWithSecret(keys: readonly ApiKey[], secret: string): ApiKey | undefined {
  const sent = createHash('sha256').update(secret).digest();
  return keys.filter((key) => timingSafeEqual(createHash('sha256').update(key.secret).digest(), sent))[0];
}

/**
 * Collector keys (`preset: "collector"`): the key's secret as sent in `X-Algolia-API-Key`, compared with every active
 * collector key of the customer. No other key matches, whatever its permissions.
 */
@Injectable()
export class CollectorAuthenticator {
  constructor(private readonly keys: ApiKeysRepository) {}

  async authenticate(secret: string, customer: Customer): Promise<CollectorPrincipal> {
    const match = keyWithSecret((await this.keys.activeKeys(customer.customer)).filter(isCollectorKey), secret);
    if (!match) {
      throw refused('collectorWrong');
    }
    return {
      scheme: 'collector',
      principal: match.id,
      permissions: new Set(match.permissions),
      instances: match.instances,
      origins: match.origins ?? [],
    };
  }
}

/**
 * Analytics keys (`preset: "analytics"`): the key's secret as sent in `X-Algolia-API-Key` to `GET /2/...`, compared
 * with every active analytics key of the customer. No other key matches: an HMAC key's secret never travels.
 */
@Injectable()
export class AnalyticsKeyAuthenticator {
  constructor(private readonly keys: ApiKeysRepository) {}

  async authenticate(secret: string, customer: Customer): Promise<Principal> {
    const match = keyWithSecret((await this.keys.activeKeys(customer.customer)).filter(isAnalyticsKey), secret);
    if (!match) {
      throw refused('analyticsKeyWrong');
    }
    return { scheme: 'analytics', principal: match.id, permissions: new Set(match.permissions), instances: match.instances };
  }
}

/**
 * Basic: the instance credentials of the customer; all permissions. The password is hashed in PasswordChecks'
 * workers.
 */
@Injectable()
export class BasicAuthenticator {
  // scrypt is slow on purpose; a verified (hash, password) pair is remembered briefly so a busy CLI user
  // does not pay it on every call. Keyed by a digest, so the cache never holds a password.
  private readonly verified = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });

  /** Checks running now, by the same digest: requests sent at once with one password share one hash. */
  private readonly running = new Map<string, Promise<boolean>>();

  constructor(private readonly passwords: PasswordChecks) {}

  /**
   * `startHash` is called only when this request's password is really hashed (neither remembered nor being hashed
   * for another request); what it returns is told when the hash matched.
   */
  async authenticate(value: string, customer: Customer, startHash: () => { succeeded(): void }): Promise<Principal> {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const stored = customer.basicPasswordHash;
    if (colon < 0) {
      throw refused('basicForm');
    }
    if (!stored) {
      throw refused('basicWrong', 'the customer has no Basic credentials');
    }
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const cacheKey = createHash('sha256').update(stored).update('\u0000').update(password).digest('hex');
    let check = this.verified.has(cacheKey) ? Promise.resolve(true) : this.running.get(cacheKey);
    if (!check) {
      const attempt = startHash();
      check = this.passwords.verify(password, stored).finally(() => this.running.delete(cacheKey));
      this.running.set(cacheKey, check);
      // A match, or a check refused before it ran (the hashing queue was full), is no failure of the address.
      void check.then(
        (ok) => ok && attempt.succeeded(),
        (err) => err instanceof RetryLaterError && attempt.succeeded(),
      );
    }
    const passwordOk = await check;
    if (passwordOk) {
      this.verified.set(cacheKey, true);
    }
    if (login !== customer.basicLogin || !passwordOk) {
      throw refused('basicWrong');
    }
    return { scheme: 'basic', principal: login, permissions: ALL_PERMISSIONS };
  }
}
