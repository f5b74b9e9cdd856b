/**
 * Why a string field cannot be stored as text, naming the field; undefined when it can. A lone UTF-16 surrogate
 * (what `slice()` leaves of an emoji) is refused by ClickHouse's JSON input (the whole insert fails), and a NUL
 * is never part of a search phrase or an id; both are rejected items, never a failed insert.
 */
export function textProblem(field: string, value: string): string | undefined {
  if (!value.isWellFormed()) {
    return `${field} is not well-formed Unicode (a lone surrogate)`;
  }
  if (value.includes('\u0000')) {
    return `${field} contains a NUL character`;
  }
  return undefined;
}

/** A name taken from the client (e.g. an unknown field) as it may appear in a reason: well-formed and short. */
export function echoedName(name: string): string {
  const shown = name.toWellFormed();
  return shown.length > 100 ? `${shown.slice(0, 100)}...` : shown;
}
