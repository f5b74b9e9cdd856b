import { AppError } from './app-error';

/**
 * A request refused for now, not for what it is: too many at once (429) or a shared budget spent (503). The answer
 * carries Retry-After with `retryAfterSeconds`.
 */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code: 'too-many' | 'unavailable' = 'too-many',
  ) {
    super(code, message, message);
  }
}
