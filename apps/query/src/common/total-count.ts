import { ApiResponse } from '@nestjs/swagger';
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

/** Documents a paginated list's 200 with its X-Total-Count header. */
export const ApiTotalCount = () =>
  ApiResponse({
    status: 200,
    headers: { [TOTAL_COUNT_HEADER]: { description: 'Number of items before pagination', schema: { type: 'integer' } } },
  });
