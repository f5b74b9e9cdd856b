/**
 * What a failure means to the caller; the one exception filter (libs/http) maps each code to its HTTP status, so
 * domain code never names a status and never imports the HTTP layer.
 */
export type ErrorCode =
  'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'precondition-failed' | 'too-many' | 'unavailable';

/** Base of every error the service raises on purpose. `publicMessage` is what the client reads. */
export abstract class AppError extends Error {
  protected constructor(
    readonly code: ErrorCode,
    message: string,
    readonly publicMessage: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
