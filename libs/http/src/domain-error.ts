export type DomainErrorCode = 'invalid' | 'not-found' | 'forbidden' | 'conflict' | 'unavailable';

/** A rule of the domain was broken by the caller; the exception filter maps the code to a 4xx status. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
