/** A UUID as clients write it: dashed (8-4-4-4-12) or 32 hex characters, in any case (docs/architecture.md). */
const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BARE = /^[0-9a-f]{32}$/i;

/**
 * The one spelling of an id (a search event's `id`, a click's `searchId`): the lower-case dashed UUID, whichever
 * way it was written; undefined when the value is not a UUID in either form.
 */
export function canonicalId(value: string): string | undefined {
  if (DASHED.test(value)) {
    return value.toLowerCase();
  }
  if (BARE.test(value)) {
    const hex = value.toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return undefined;
}

/** The reason for a field that is not an id, worded alike wherever ids are taken. */
export function idProblem(field: string): string {
  return `${field} must be a UUID (with or without dashes)`;
}
