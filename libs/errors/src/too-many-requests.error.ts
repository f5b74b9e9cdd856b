import { AppError } from './app-error';

/** A limit of the caller's is reached (429): the message names it, Retry-After says when to try again. */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    /** Whole seconds, at least 1. */
    readonly retryAfterSeconds: number,
  ) {
    super('too-many-requests', message, message);
  }
}
