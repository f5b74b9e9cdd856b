import type { Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { EXPOSED_HEADERS, TOTAL_COUNT_HEADER } from '@app/http';

/** The response methods this needs; Express and Fastify replies both have `header`. */
export interface HeaderTarget {
  header(name: string, value: string): unknown;
}

/** X-Total-Count, readable by browsers across origins. */
export function setTotalCount(res: HeaderTarget, total: number): void {
  res.header(TOTAL_COUNT_HEADER, String(total));
  res.header('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
}

type HeaderDocs = Record<string, { description: string; required: boolean; schema: object }>;

/**
 * Documents a paginated list's 200: an array of `type`, with its X-Total-Count header (and `headers`); with `csv`
 * (an example), the list is also answered as text/csv.
 */
export const ApiPage = (type: Type<unknown>, description: string, options: { headers?: HeaderDocs; csv?: string } = {}) =>
  applyDecorators(
    ApiExtraModels(type),
    ApiOkResponse({
      description,
      headers: {
        [TOTAL_COUNT_HEADER]: { description: 'Number of items before pagination', required: true, schema: { type: 'integer', minimum: 0 } },
        ...options.headers,
      },
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: getSchemaPath(type) } } },
        ...(options.csv ? { 'text/csv': { schema: { type: 'string' }, example: options.csv } } : {}),
      },
    }),
  );
