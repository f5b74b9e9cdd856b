import { AppError } from './app-error';

export type AuthErrorCode = 'unauthenticated' | 'forbidden';

/**
 * Authentication and authorisation failures. The message a client sees never says which check failed
 * (unknown key, bad hash, reused nonce, unknown instance all read the same), so it cannot be used as an oracle.
 */
export class AuthError extends AppError {
  constructor(
    code: AuthErrorCode,
    /** For the log only; never sent to the client. */
    readonly reason: string,
    /** Forbidden only: safe to show (e.g. the missing permission name). Every 401 reads the same. */
    publicMessage?: string,
  ) {
    super(code, reason, code === 'forbidden' ? (publicMessage ?? 'Forbidden') : 'Missing or invalid credentials');
  }
}
