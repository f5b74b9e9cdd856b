import type { Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { TOTAL_COUNT_HEADER } from '@app/http';

/** The response methods this needs; Express and Fastify replies both have `header`. */
interface HeaderTarget {
  header(name: string, value: string): unknown;
}

/** X-Total-Count, readable by browsers across origins. */
export function setTotalCount(res: HeaderTarget, total: number): void {
  res.header(TOTAL_COUNT_HEADER, String(total));
  res.header('Access-Control-Expose-Headers', TOTAL_COUNT_HEADER);
}

/** Documents a paginated list's 200: an array of `type`, with its X-Total-Count header. */
export const ApiPage = (type: Type<unknown>, description: string) =>
  ApiOkResponse({
    type,
    isArray: true,
    description,
    headers: {
      [TOTAL_COUNT_HEADER]: { description: 'Number of items before pagination', required: true, schema: { type: 'integer', minimum: 0 } },
    },
  });
