/**
 * ClickHouse error types that mean "these rows cannot be stored" (the data), as opposed to a connection, server
 * or schema failure (the store), which is retried. Every CANNOT_PARSE_* type counts, plus the conversions below.
 */
const DATA_ERRORS = new Set([
  'INCORRECT_DATA',
  'TYPE_MISMATCH',
  'CANNOT_CONVERT_TYPE',
  'TOO_LARGE_STRING_SIZE',
  'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
  'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN',
  'DECIMAL_OVERFLOW',
  'ARGUMENT_OUT_OF_BOUND',
  'UNICODE_ERROR',
]);

/** Whether an insert failed because of the rows it carried (ClickHouseError.type), not because of the store. */
export function isDataError(err: unknown): boolean {
  const type = (err as { type?: unknown })?.type;
  return typeof type === 'string' && (type.startsWith('CANNOT_PARSE') || DATA_ERRORS.has(type));
}

/** The first line of a ClickHouse message, short enough for a rejected row's reason. */
export function storageReason(err: unknown): string {
  const message = ((err as Error)?.message ?? String(err)).split('\n')[0].slice(0, 300);
  return `storage refused the row: ${message}`.toWellFormed();
}
