import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { AppError, AuthError, RetryLaterError, type ErrorCode } from '@app/errors';
import { STORAGE_UNREACHABLE, storageUnreachable } from './storage-unreachable';

/** The one mapping of error codes (libs/errors) to HTTP statuses. */
const STATUS_OF: Record<ErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  'too-many': 429,
  unavailable: 503,
};

/**
 * Maps every error to a JSON body `{ statusCode, error, message }`. Errors raised on purpose (AppError) get the
 * status of their code and their public message (a RetryLaterError its Retry-After header too); Nest's and
 * Fastify's own client errors keep their 4xx; anything unexpected becomes a generic 500 with a correlation id,
 * logged with its stack, never shown.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<object>();
    if (this.adapterHost.httpAdapter.isHeadersSent(res)) {
      return;
    }
    const described = this.describe(exception);
    const { status } = described;
    // POST /1/events answers as Algolia's Insights API does: `{ status, message }` and nothing more (EventsResponse);
    // GET /2/... as its Analytics API does, with the same two fields (ErrorBase).
    const body = answerBody(host.switchToHttp().getRequest<{ url?: string }>()?.url ?? '', status, described.body);
    if (exception instanceof RetryLaterError) {
      this.adapterHost.httpAdapter.setHeader(res, 'Retry-After', String(exception.retryAfterSeconds));
    } else if (storageUnreachable(exception)) {
      this.adapterHost.httpAdapter.setHeader(res, 'Retry-After', String(STORAGE_UNREACHABLE.retryAfterSeconds));
    }
    this.adapterHost.httpAdapter.reply(res, body, status);
  }

  private describe(exception: unknown): { status: number; body: Record<string, unknown> } {
    if (exception instanceof AppError) {
      if (exception instanceof AuthError) {
        this.logger.debug(`auth refused: ${exception.reason}`);
      }
      const status = STATUS_OF[exception.code];
      return { status, body: errorBody(status, exception.publicMessage) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const body = typeof response === 'string' ? errorBody(status, response) : (response as Record<string, unknown>);
      return { status, body };
    }
    // Fastify's own errors (FST_ERR_*, e.g. a malformed URL) carry their 4xx as statusCode.
    const status = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { status, body: errorBody(status, (exception as Error).message || 'Bad request') };
    }
    if (exception instanceof URIError) {
      return { status: 400, body: errorBody(400, 'Malformed URI encoding') };
    }
    if (storageUnreachable(exception)) {
      this.logger.warn(`storage did not answer, answered 503: ${(exception as Error).message}`);
      return { status: 503, body: errorBody(503, STORAGE_UNREACHABLE.message) };
    }
    const correlationId = randomUUID();
    this.logger.error(`unhandled error ${correlationId}: ${(exception as Error)?.stack ?? String(exception)}`);
    return { status: 500, body: { ...errorBody(500, 'Internal server error'), correlationId } };
  }
}

/** The message of an Algolia answer: the error's, with the correlation id of a 500 (it has no field of its own). */
function algoliaMessage(body: Record<string, unknown>): string {
  const message = Array.isArray(body.message) ? body.message.join('; ') : String(body.message);
  return typeof body.correlationId === 'string' ? `${message} (correlation id ${body.correlationId})` : message;
}

/**
 * The body of an error answer to `url`: Algolia's `{ status, message }` on its routes, else the service's `body`
 * (errorBody). The exception filter, the router's own 400 and the 503 before migrations all answer through it.
 */
export function answerBody(url: string, status: number, body: Record<string, unknown>): Record<string, unknown> {
  return isAlgoliaUrl(url) ? { status, message: algoliaMessage(body) } : body;
}

/** POST /1/events (and its query string), and Algolia's Analytics API, `/2/...`. */
function isAlgoliaUrl(url: string): boolean {
  return url === '/1/events' || url.startsWith('/1/events?') || url.startsWith('/2/');
}

/** The error body every error answer carries (ErrorView, the schema ErrorBody in the OpenAPI document). */
export function errorBody(status: number, message: string): { statusCode: number; error: string; message: string } {
  return { statusCode: status, error: httpErrorName(status), message };
}

function httpErrorName(status: number): string {
  const name = HttpStatus[status];
  return name ? name.toLowerCase().replace(/(^|_)([a-z])/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase()) : 'Error';
}
