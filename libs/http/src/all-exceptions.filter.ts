import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { AuthError } from '@app/auth';
import { StorageUnavailableError } from '@app/clickhouse';
import { DomainError } from './domain-error';

const DOMAIN_STATUS = { invalid: 400, 'not-found': 404, forbidden: 403, conflict: 409, unavailable: 503 } as const;

interface HttpErrorLike {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  limit?: number;
  message?: string;
}

/**
 * Maps every error to a JSON body `{ statusCode, error, message }`. Client mistakes keep their 4xx;
 * anything unexpected becomes a generic 500 with a correlation id, logged with its stack, never shown.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<object>();
    if (this.adapterHost.httpAdapter.isHeadersSent(res)) return;
    const { status, body } = this.describe(exception);
    this.adapterHost.httpAdapter.reply(res, body, status);
  }

  private describe(exception: unknown): { status: number; body: Record<string, unknown> } {
    if (exception instanceof AuthError) {
      this.logger.debug(`auth refused: ${exception.reason}`);
      return exception.code === 'forbidden'
        ? { status: 403, body: { statusCode: 403, error: 'Forbidden', message: exception.publicMessage ?? 'Forbidden' } }
        : { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Missing or invalid credentials' } };
    }
    if (exception instanceof StorageUnavailableError) {
      return { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'The service is shutting down; retry' } };
    }
    if (exception instanceof DomainError) {
      const status = DOMAIN_STATUS[exception.code];
      return { status, body: { statusCode: status, error: httpErrorName(status), message: exception.message } };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const body = typeof response === 'string' ? { statusCode: status, error: httpErrorName(status), message: response } : (response as Record<string, unknown>);
      return { status, body };
    }
    // Errors of the Express stack (body-parser, URI decoding) carry a status and expose=true.
    const e = exception as HttpErrorLike;
    const status = e?.status ?? e?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500 && e.expose !== false) {
      const message = e.type === 'entity.too.large' ? `Request body exceeds the limit of ${e.limit} bytes for this route` : (e.message ?? 'Bad request');
      return { status, body: { statusCode: status, error: httpErrorName(status), message } };
    }
    if (exception instanceof URIError) {
      return { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Malformed URI encoding' } };
    }
    const correlationId = randomUUID();
    this.logger.error(`unhandled error ${correlationId}: ${(exception as Error)?.stack ?? String(exception)}`);
    return { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', correlationId } };
  }
}

function httpErrorName(status: number): string {
  const name = HttpStatus[status];
  return name ? name.toLowerCase().replace(/(^|_)([a-z])/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase()) : 'Error';
}
