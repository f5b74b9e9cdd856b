import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import * as express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** DESIGN.md section 8: 10 MB for the bulk intake routes, 1 MB elsewhere; over it 413. */
export const LARGE_BODY_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const LARGE_BODY_ROUTES = new Set(['POST /events', 'PUT /documents']);

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as bytes (the HMAC covers exactly these), keeps them as req.rawBody, then parses JSON.
 * Errors go to Nest's exception filters: 400 malformed JSON or invalid UTF-8, 413 too large,
 * 415 another content type.
 */
export function jsonBody(): RequestHandler {
  const large = express.raw({ type: () => true, limit: LARGE_BODY_LIMIT });
  const small = express.raw({ type: () => true, limit: DEFAULT_BODY_LIMIT });
  return (req: Request, res: Response, next: NextFunction) => {
    const parser = LARGE_BODY_ROUTES.has(`${req.method} ${req.path}`) ? large : small;
    parser(req, res, (err?: unknown) => {
      if (err) return next(err);
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      req.rawBody = raw;
      req.body = undefined;
      if (raw.length === 0) return next();
      const type = req.headers['content-type'];
      if (type && !JSON_TYPE.test(type)) return next(new UnsupportedMediaTypeException('Content-Type must be application/json'));
      let text: string;
      try {
        text = utf8.decode(raw);
      } catch {
        return next(new BadRequestException('Request body is not valid UTF-8'));
      }
      try {
        req.body = JSON.parse(text);
      } catch (e) {
        return next(new BadRequestException(`Malformed JSON body: ${(e as Error).message}`));
      }
      next();
    });
  };
}
