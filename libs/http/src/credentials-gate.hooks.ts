import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ANALYTICS_KEY, clientAddress, clientKey, COLLECTOR_KEY, CredentialsGate, PUBLIC_KEY } from '@app/auth';
import { RetryLaterError } from '@app/errors';
import type { AppConfig } from '@app/config';
import { bodyLimitOf, checkContentType, declaresBody, parseJsonBody } from './body-parser';
import { grantCors } from './insights-cors';

/**
 * Who may call a route: anyone, a valid credential of a customer, a collector key (POST /1/events only), or on
 * Algolia's Analytics API (GET /2/...) an analytics key or a valid credential.
 */
type Access = 'public' | 'credential' | 'collector' | 'analytics';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** Unverified bodies one client address may send at once, small ones aside. */
export const UNVERIFIED_BODIES_PER_ADDRESS = 4;
/**
 * A body this small (by its Content-Length) does not count against its address's share, only against the bytes: a
 * shop's server sending many one-event requests at once is the usual traffic, and such bodies arrive in a packet.
 */
export const SMALL_BODY_BYTES = 64 * 1024;
/** Small bodies of one address hold at most this fraction of UNVERIFIED_BODY_BYTES (4 MB of the default 64 MB). */
const SMALL_BYTES_SHARE = 16;
/** Collector keys' bodies share this fraction of UNVERIFIED_BODY_BYTES, apart from the signed requests' bodies. */
const COLLECTOR_SHARE = 4;
/** An unverified body not in whole after this long loses its connection (and its reservation). */
export const UNVERIFIED_BODY_DEADLINE_MS = 30_000;
/** How long a refused client has to read its answer before a connection it keeps writing to is closed. */
const LINGER_MS = 5_000;

/**
 * The bytes held for request bodies whose signature is not verified yet: at most UNVERIFIED_BODY_BYTES per process
 * and UNVERIFIED_BODIES_PER_ADDRESS bodies over SMALL_BODY_BYTES per client address. A request reserves its declared
 * length (or its route's limit when it is chunked) before its body is read, and gives it back once verified or
 * closed.
 */
export class UnverifiedBodies {
  private held = 0;
  private readonly perAddress = new Map<string, { bodies: number; smallBytes: number }>();

  constructor(private readonly limitBytes: number) {}

  /** The release of a reservation, or undefined when the bytes or the address's share are spent. */
  reserve(address: string, bytes: number): (() => void) | undefined {
    const counted = bytes > SMALL_BODY_BYTES ? 1 : 0;
    const share = this.perAddress.get(address) ?? { bodies: 0, smallBytes: 0 };
    const small = counted ? 0 : bytes;
    if (
      share.bodies + counted > UNVERIFIED_BODIES_PER_ADDRESS ||
      share.smallBytes + small > this.limitBytes / SMALL_BYTES_SHARE ||
      this.held + bytes > this.limitBytes
    ) {
      return undefined;
    }
    this.held += bytes;
    share.bodies += counted;
    share.smallBytes += small;
    this.perAddress.set(address, share);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.held -= bytes;
      share.bodies -= counted;
      share.smallBytes -= small;
      if (share.bodies === 0 && share.smallBytes === 0) {
        this.perAddress.delete(address);
      }
    };
  }

  get heldBytes(): number {
    return this.held;
  }
}

/**
 * Routes are public when their handler says so (`@Public()`; the docs unless DOCS_PUBLIC=false; CORS preflight);
 * every other route needs a credential. A route nobody marked is closed, not open.
 */
function accessOf(route: { method: string | string[]; url: string; handler: unknown }, config: AppConfig): Access {
  if ([route.method].flat().every((m) => m === 'OPTIONS')) {
    return 'public';
  }
  if (route.url === '/docs' || route.url.startsWith('/docs/') || route.url.startsWith('/docs-json') || route.url.startsWith('/docs-yaml')) {
    return config.docsPublic ? 'public' : 'credential';
  }
  const handler = route.handler as object;
  if (Reflect.getMetadata(COLLECTOR_KEY, handler) === true) {
    return 'collector';
  }
  if (Reflect.getMetadata(ANALYTICS_KEY, handler) === true) {
    return 'analytics';
  }
  return Reflect.getMetadata(PUBLIC_KEY, handler) === true ? 'public' : 'credential';
}

/** The routes of the Insights protocol (`/1/...`): their CORS is their own (insights-cors.ts), never CORS_ORIGINS'. */
export function isInsightsUrl(url: string): boolean {
  return url.startsWith('/1/');
}

/** Marks each route's access as it is added: before the app registers its routes. */
export function registerRouteAccess(fastify: FastifyInstance, config: AppConfig): void {
  fastify.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: accessOf(route, config), ...(isInsightsUrl(route.url) ? { cors: false } : {}) };
  });
}

/**
 * The request as the guards see it: Nest hands them the Fastify request, so what the gate notes (the admission) and
 * the body's bytes live there.
 */
const asSeenByGuards = (req: FastifyRequest) => req as unknown as IncomingMessage;

/**
 * A refused request's connection is closed: the client may still be sending a body nobody will read. Node's own close
 * after a `Connection: close` answer destroys the socket as soon as the answer is written, and the reset it sends can
 * reach the client before the client has read the answer: it then sees EPIPE instead of its 401. So for these
 * connections the close is replaced: the answer is followed by a FIN, the socket stops reading (the client's writes
 * fill its window and wait) and is destroyed LINGER_MS later.
 */
function closing(req: FastifyRequest, reply: FastifyReply, err: unknown): unknown {
  reply.header('connection', 'close');
  const socket = req.raw.socket as Socket | null;
  if (socket) {
    socket.destroySoon = () => {
      socket.pause();
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
  }
  return err;
}

/**
 * Credentials before bytes. Before the body is read (onRequest): the CredentialsGate decides what the headers can
 * (Basic, JWT, the HMAC headers, a reused nonce, the instance), then the Content-Type; a refusal closes the
 * connection without reading the body. An HMAC body reserves its bytes in UnverifiedBodies, and a collector key's
 * (public) in a pool of its own (503 with Retry-After when they are spent). Once the
 * bytes are in (preValidation): the signature is verified over them, and only then is the body decoded and parsed.
 */
export function registerCredentialsGate(fastify: FastifyInstance, config: AppConfig, gate: CredentialsGate | undefined): void {
  const unverified = new UnverifiedBodies(config.unverifiedBodyBytes);
  // Collector keys are public: their bodies get a pool of their own, so they can never hold the signed customers' one.
  const collectorBodies = new UnverifiedBodies(config.unverifiedBodyBytes / COLLECTOR_SHARE);
  const releases = new WeakMap<FastifyRequest, () => void>();
  // preParsing: after every onRequest hook (CORS headers, the request's metrics timer), before the body is read.
  fastify.addHook('preParsing', async (req, reply) => {
    const access = req.routeOptions.config.access;
    const gated = gate !== undefined && access !== 'public';
    try {
      if (gated && access === 'collector') {
        const { corsOrigin } = await gate.admitCollector(asSeenByGuards(req));
        grantCors(reply, corsOrigin);
        await gate.countCollected(asSeenByGuards(req));
      } else if (gated && access === 'analytics') {
        await gate.admitAnalytics(asSeenByGuards(req));
      } else if (gated) {
        await gate.admit(asSeenByGuards(req));
      }
      // Fastify never reads the body of a GET or HEAD: there is nothing to type or to hold.
      if (req.method === 'GET' || req.method === 'HEAD') {
        return;
      }
      checkContentType(req.headers, access === 'collector');
      // The bodies read before they are trusted: an HMAC request's (its signature is over them) and a collector's (its
      // key is public, in every shop page).
      const unverifiedBody = access === 'collector' || asSeenByGuards(req).admission?.hmac;
      if (!gated || !unverifiedBody || !declaresBody(req.headers)) {
        return;
      }
      const declared = Number(req.headers['content-length']);
      const bytes = declared > 0 ? declared : bodyLimitOf(req.method, req.routeOptions.url);
      const pool = access === 'collector' ? collectorBodies : unverified;
      const release = pool.reserve(clientKey(clientAddress(asSeenByGuards(req))), bytes);
      if (!release) {
        throw new RetryLaterError('Too many request bodies waiting for their signature to be verified; retry in 1 s', 1, 'unavailable');
      }
      // A trickled or abandoned upload does not hold its share for Node's 300 s request timeout.
      const deadline = setTimeout(() => req.raw.destroy(), UNVERIFIED_BODY_DEADLINE_MS);
      const done = () => {
        clearTimeout(deadline);
        release();
      };
      releases.set(req, done);
      reply.raw.once('close', done);
    } catch (err) {
      throw closing(req, reply, err);
    }
  });
  fastify.addHook('preValidation', async (req) => {
    const raw = asSeenByGuards(req).rawBody ?? Buffer.alloc(0);
    try {
      const access = req.routeOptions.config.access;
      if (gate !== undefined && (access === 'credential' || access === 'analytics')) {
        await gate.verify(asSeenByGuards(req), raw);
      }
    } finally {
      releases.get(req)?.();
    }
    if (Buffer.isBuffer(req.body)) {
      req.body = parseJsonBody(raw);
    }
  });
}
