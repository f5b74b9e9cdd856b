/** The response methods this needs; Express and Fastify replies both have `header`. */
interface HeaderTarget {
  header(name: string, value: string): unknown;
}

/** X-Total-Count, readable by browsers across origins. */
export function setTotalCount(res: HeaderTarget, total: number): void {
  res.header('X-Total-Count', String(total));
  res.header('Access-Control-Expose-Headers', 'X-Total-Count');
}
