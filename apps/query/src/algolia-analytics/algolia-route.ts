import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiQuery, ApiResponse, ApiSchema } from '@nestjs/swagger';
import { RequireAnalyticsRead } from '@app/auth';
import { MAX_PHRASE_LENGTH } from '@app/contracts';
import { retryAfterHeaders } from '@app/errors';
import type { AlgoliaParam } from './algolia-request';

/** The OpenAPI tag of Algolia's Analytics API routes. */
export const ALGOLIA_TAG = "Algolia's Analytics API";

/** An error answer of `GET /2/...`, as Algolia's `ErrorBase` (which allows more fields) with the status repeated. */
@ApiSchema({ name: 'AlgoliaError' })
export class AlgoliaErrorView {
  @ApiProperty({ example: 'startDate must not be after endDate', description: 'What is wrong, naming the parameter' })
  message!: string;

  @ApiProperty({ type: 'integer', example: 400, description: 'The HTTP status, repeated' })
  status!: number;
}

/** The parameters as Algolia's document declares them, with what the service does with each. */
const PARAMS: Record<AlgoliaParam, { description: string; schema: Record<string, unknown> }> = {
  index: { description: 'An instance, or an Algolia index name an instance declares (algoliaIndexes)', schema: { type: 'string' } },
  startDate: { description: 'The first day (UTC), YYYY-MM-DD; default: endDate minus 7 days', schema: { type: 'string', format: 'date' } },
  endDate: { description: 'The last day (UTC), YYYY-MM-DD, inclusive; default: today', schema: { type: 'string', format: 'date' } },
  limit: { description: 'Entries per page', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } },
  offset: { description: 'Entries skipped', schema: { type: 'integer', minimum: 0, default: 0 } },
  orderBy: {
    description: 'The order; all but searchCount need clickAnalytics=true',
    schema: { type: 'string', enum: ['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition'], default: 'searchCount' },
  },
  direction: {
    description: "desc: most first (the default here, where Algolia's document says asc; see docs/algolia.md)",
    schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  },
  clickAnalytics: { description: 'Adds the click and conversion figures', schema: { type: 'boolean', default: false } },
  revenueAnalytics: {
    description: 'Adds the add-to-cart, purchase and revenue figures (implies clickAnalytics)',
    schema: { type: 'boolean', default: false },
  },
  tags: { description: "Only the searches with these tags: one, or joined by ' AND ' or ' OR '", schema: { type: 'string' } },
  search: { description: "Only this phrase's searches", schema: { type: 'string', maxLength: MAX_PHRASE_LENGTH } },
};

const ERRORS: Array<[number, string]> = [
  [400, 'A parameter out of its form or range, one the route does not take, or a window beyond the retention; the message names it'],
  [401, 'A wrong application id, a missing or unknown key, or a key of another kind than analytics; the message names the rule'],
  [403, 'The credential may not read the index (or lacks analytics:read)'],
  [404, 'Unknown index'],
  [429, 'Too many requests, or too many failed authentications from this address'],
  [503, 'Storage unavailable or the service shutting down; retry later'],
];

/**
 * A route of Algolia's Analytics API: analytics:read (an analytics key in `X-Algolia-API-Key`, or Basic, a JWT or a
 * signed request), answered as Algolia's document defines the operation of the same name (docs/algolia.md), errors as
 * `{ message, status }`.
 */
export const AlgoliaRoute = (operationId: string, summary: string, params: readonly AlgoliaParam[]) =>
  applyDecorators(
    RequireAnalyticsRead(),
    ...params.map((name) => ApiQuery({ name, required: name === 'index', ...PARAMS[name] })),
    ApiOperation({
      operationId: `algolia_${operationId}`,
      summary,
      description:
        `Answered as the operation ${operationId} of Algolia's Analytics API v2 defines it, for its clients ` +
        '(`@algolia/client-analytics` with `hosts` set to the service); what each field counts: docs/algolia.md.',
    }),
    ApiOkResponse({ schema: { type: 'object', description: `As Algolia's ${operationId} defines it` } }),
    ...ERRORS.map(([status, description]) =>
      ApiResponse({
        status,
        description,
        type: AlgoliaErrorView,
        headers: retryAfterHeaders(status),
      }),
    ),
  );
