import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiSchema } from '@nestjs/swagger';

/** The name of ErrorView's schema in the OpenAPI document, the one generated clients already use. */
export const ERROR_SCHEMA = 'ErrorBody';

/** The body of every error answer (the one exception filter in libs/http writes it). */
@ApiSchema({ name: ERROR_SCHEMA })
export class ErrorView {
  @ApiProperty({ type: 'integer', example: 400, description: 'The HTTP status, repeated' })
  statusCode!: number;

  @ApiProperty({ example: 'Bad Request', description: "The status's reason phrase" })
  error!: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: 'since must be a number of days such as 1d, 7d or 30d',
    description: 'What is wrong, naming the parameter or field; a list when a request body has several invalid fields',
  })
  message!: string | string[];
}

/** The error statuses the service answers, each with what it means wherever it occurs. */
export const ERROR_STATUSES = {
  400: 'Invalid input: a parameter, the body or one of its fields, or a malformed URL; the message names the problem',
  401: 'Missing or invalid credentials, or an unknown customer or instance; the message names the rule that failed',
  403: 'The credential lacks the permission this operation needs',
  404: 'No such resource',
  409: 'The request conflicts with what is stored (the message names it): nothing was written',
  412: 'A precondition of the request (If-Match, If-None-Match) does not hold: nothing was written; read the resource again',
  413: "The body exceeds the route's limit (10 MB for POST /events and PUT /documents, 1 MB elsewhere)",
  414: 'The query string is longer than 8 KB (8,192 bytes; 64 KB on DELETE, for ids[] lists)',
  415: 'The body is not application/json, or has no Content-Type',
  429:
    "Too many requests: the customer's budget per minute, too many failed authentications from this address, too many " +
    'password checks at once, or too many analytics queries of this customer at once (ANALYTICS_CONCURRENCY, then a short queue)',
  503:
    'Storage or the Kafka broker is unavailable, the service is shutting down, or too many request bodies wait for their ' +
    'signature to be verified (then with Retry-After); retry later. Without Retry-After, an answer may also need more ' +
    'memory than storage allows: ask for a shorter window',
} as const;

export type ErrorStatus = keyof typeof ERROR_STATUSES;

/**
 * The Retry-After header an error answer documents: on 429 (always sent) and on 503 (when a budget is spent), whole
 * seconds to wait; none on any other status. Also for answers with a body of their own (Algolia's protocols).
 */
export function retryAfterHeaders(status: number): Record<string, object> | undefined {
  return status === 429 || status === 503
    ? {
        'Retry-After': {
          description: 'Seconds to wait before retrying',
          required: status === 429,
          schema: { type: 'integer', minimum: 1 },
        },
      }
    : undefined;
}

/**
 * Documents error answers with the error body, each with its usual meaning or the given description. Every
 * operation lists the statuses it really answers; the contract test (test/support/openapi-contract.ts) fails on any
 * other.
 */
export function ApiErrors(...statuses: Array<ErrorStatus | [ErrorStatus, string]>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((entry) => {
      const [status, description] = Array.isArray(entry) ? entry : [entry, ERROR_STATUSES[entry]];
      return ApiResponse({ status, description, type: ErrorView, headers: retryAfterHeaders(status) });
    }),
  );
}
