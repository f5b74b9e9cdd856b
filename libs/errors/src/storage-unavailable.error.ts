import { AppError } from './app-error';

/** Storage was closed (the process is shutting down): the request may be retried elsewhere. */
export class StorageUnavailableError extends AppError {
  constructor() {
    super('unavailable', 'storage is shutting down', 'The service is shutting down; retry');
  }
}
