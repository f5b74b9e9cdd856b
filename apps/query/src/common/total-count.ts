import type { Response } from 'express';

/** X-Total-Count, readable by browsers across origins. */
export function setTotalCount(res: Response, total: number): void {
  res.setHeader('X-Total-Count', String(total));
  res.setHeader('Access-Control-Expose-Headers', 'X-Total-Count');
}
