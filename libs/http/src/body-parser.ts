import { BadRequestException, NotFoundException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/** 10 MB for the bulk intake routes, 1 MB elsewhere; over it 413. */
export const LARGE_BODY_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const LARGE_BODY_ROUTES = new Set(['POST /events', 'PUT /documents']);

/** The body limit of a route (its method and URL pattern). */
export function bodyLimitOf(method: string, url: string | undefined): number {
  return LARGE_BODY_ROUTES.has(`${method} ${url}`) ? LARGE_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

function tooLarge(limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`Request body exceeds the limit of ${limit} bytes for this route`);
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
/** Deeper JSON is refused before anything walks it (validation and transformation recurse). */
export const MAX_JSON_DEPTH = 64;

/** Nesting depth of JSON text, scanned without recursion; brackets inside strings do not count. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) {
        // backslash: skip the escaped character
        i++;
      } else if (c === 34) {
        inString = false;
      }
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      max = Math.max(max, ++depth);
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return max;
}
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A request to no route gets 404 whatever its body. A body whose Content-Length is over the route's limit is refused
 * with 413 before a byte of it is read (and before authentication), and the connection is closed since the client
 * may keep sending. Routes also get their limit as Fastify's `bodyLimit`, so a body without Content-Length (chunked)
 * is cut off at the route's limit.
 */
export function registerBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit = Math.max(...[route.method].flat().map((method) => bodyLimitOf(method, route.url)));
  });
  fastify.addHook('onRequest', async (req, reply) => {
    // No route: 404 (Nest's own answer) before the body is looked at, so its size, type or JSON never matter.
    if (req.is404) {
      throw new NotFoundException(`Cannot ${req.method} ${req.url}`);
    }
    const declared = Number(req.headers['content-length']);
    const limit = bodyLimitOf(req.method, req.routeOptions.url);
    if (declared > limit) {
      reply.header('connection', 'close');
      throw tooLarge(limit);
    }
  });
}

/**
 * Every body is read as bytes (the HMAC covers exactly these) and kept as `rawBody`, 413 over the route's limit. It
 * is decoded and parsed only later, by `parseJsonBody`, once the credentials are verified (credentials-gate.hooks.ts):
 * a body whose signature matches no key is never decoded.
 */
export function registerRawBody(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: LARGE_BODY_LIMIT },
    (req: FastifyRequest, body: Buffer | string, done) => {
      const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const limit = bodyLimitOf(req.method, req.routeOptions.url);
      if (raw.length > limit) {
        return done(tooLarge(limit), undefined);
      }
      // The guard reads it from the request object Nest hands to guards (the Fastify request).
      (req as unknown as { rawBody?: Buffer }).rawBody = raw;
      done(null, raw.length === 0 ? undefined : raw);
    },
  );
}

/** A request declares a body: a Content-Length over 0, or chunked transfer. */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  return Number(headers['content-length']) > 0 || headers['transfer-encoding'] !== undefined;
}

const TEXT_PLAIN = /^text\/plain\s*(;|$)/i;

/**
 * 415 unless a request that declares a body says it is JSON: decided from the headers, before the body is read.
 * `textPlain`: text/plain too (POST /1/events: navigator.sendBeacon sends a string as text/plain, and its JSON is
 * parsed alike).
 */
export function checkContentType(headers: IncomingHttpHeaders, textPlain = false): void {
  if (!declaresBody(headers)) {
    return;
  }
  const type = headers['content-type'];
  if (!type) {
    throw new UnsupportedMediaTypeException('A request body needs Content-Type: application/json');
  }
  if (textPlain && TEXT_PLAIN.test(type)) {
    return;
  }
  if (!JSON_TYPE.test(type)) {
    throw new UnsupportedMediaTypeException(`Content-Type must be application/json${textPlain ? ' or text/plain' : ''}`);
  }
}

/** The JSON of a body's bytes: 400 for invalid UTF-8, JSON nested too deep, or malformed JSON. */
export function parseJsonBody(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new BadRequestException('Request body is not valid UTF-8');
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new BadRequestException(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BadRequestException(`Malformed JSON body: ${(e as Error).message}`);
  }
}
