import { AppError, type ErrorCode } from './app-error';

export type DomainErrorCode = Exclude<ErrorCode, 'unauthenticated' | 'too-many'>;

/** A rule of the domain was broken by the caller (or storage is unavailable); the message is shown as it is. */
export class DomainError extends AppError {
  constructor(code: DomainErrorCode, message: string) {
    super(code, message, message);
  }
}
