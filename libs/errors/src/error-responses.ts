import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

/** The body of every error answer (the one exception filter in libs/http writes it). */
export class ErrorBody {
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
  401: 'Missing or invalid credentials, or an unknown customer or instance',
  403: 'The credential lacks the permission this operation needs',
  404: 'No such resource',
  413: "The body exceeds the route's limit (10 MB for POST /events and PUT /documents, 1 MB elsewhere)",
  415: 'The body is not application/json',
  429:
    "Too many requests: the customer's budget per minute, the customer's analytics queries at once (ANALYTICS_CONCURRENCY, then a " +
    'short queue), or too many failed authentications from this address',
  503: 'Storage or the Kafka broker is unavailable, or the service is shutting down; retry later',
} as const;

export type ErrorStatus = keyof typeof ERROR_STATUSES;

/** Retry-After on 429: whole seconds until the limit's minute is over, or until a queued analytics query is likely done. */
const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
};

/**
 * Documents error answers with the error body, each with its usual meaning or the given description. Every
 * operation lists the statuses it really answers; the contract test (test/support/openapi-contract.ts) fails on any
 * other.
 */
export function ApiErrors(...statuses: Array<ErrorStatus | [ErrorStatus, string]>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((entry) => {
      const [status, description] = Array.isArray(entry) ? entry : [entry, ERROR_STATUSES[entry]];
      return ApiResponse({ status, description, type: ErrorBody, headers: status === 429 ? RETRY_AFTER : undefined });
    }),
  );
}
