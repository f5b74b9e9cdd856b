import { AppError } from './app-error';

/**
 * A read that needs more memory than storage allows (ClickHouse MEMORY_LIMIT_EXCEEDED): 503, the service's limit
 * and not the request's fault, without Retry-After (the same request needs the same memory).
 */
export class StorageLimitError extends AppError {
  constructor(detail: string) {
    super(
      'unavailable',
      `storage memory limit exceeded: ${detail}`,
      'This answer needs more memory than storage allows; ask for a shorter window',
    );
  }
}
