const HEX = '[0-9a-fA-F]';

/**
 * An id as clients may write it: a UUID with dashes (8-4-4-4-12) or as 32 hex characters, in any case. A pattern
 * without flags, so that the OpenAPI document can state it as it is.
 */
export const ID_PATTERN = `^(${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}|${HEX}{32})$`;
const ID = new RegExp(ID_PATTERN);

/**
 * The one spelling of an id (a search event's `id`, a click's `searchId`): the lower-case dashed UUID, whichever
 * way it was written; undefined when the value is not a UUID in either form.
 */
export function canonicalId(value: string): string | undefined {
  if (!ID.test(value)) {
    return undefined;
  }
  if (value.length === 36) {
    return value.toLowerCase(); // the dashed form (the common one): no copy beyond the case
  }
  const hex = value.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The reason for a field that is not an id, worded alike wherever ids are taken. */
export function idProblem(field: string): string {
  return `${field} must be a UUID (with or without dashes)`;
}

/** The nil UUID: the `search_id` of an interaction that names no search (NO_SEARCH_ID), never a search's id. */
const NIL_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The search an interaction names (`searchId`, `queryID`): its canonical id; undefined when absent; else the reason
 * naming `field` (not a UUID, or the nil UUID, which names no search).
 */
export function searchIdOf(field: string, value: unknown): string | undefined | { reason: string } {
  if (value === undefined) {
    return undefined;
  }
  const id = typeof value === 'string' ? canonicalId(value) : undefined;
  if (id === undefined) {
    return { reason: idProblem(field) };
  }
  return id === NIL_ID ? { reason: `${field} must not be the nil UUID (it names no search)` } : id;
}
