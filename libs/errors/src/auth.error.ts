import { AppError } from './app-error';

export type AuthErrorCode = 'unauthenticated' | 'forbidden';

/**
 * Authentication and authorisation failures. A 401's public message names the rule that failed (a missing header, a
 * nonce or hash not of its form, a nonce already used, a hash matching no active key, an expired or badly signed
 * token, an unknown instance: libs/auth, auth-failures.ts), never what was sent; a 403 names the missing permission.
 */
export class AuthError extends AppError {
  constructor(
    code: AuthErrorCode,
    /** For the log only; never sent to the client. */
    readonly reason: string,
    /** Safe to show: the rule a 401 names, or the missing permission name of a 403. */
    publicMessage?: string,
  ) {
    super(code, reason, publicMessage ?? (code === 'forbidden' ? 'Forbidden' : 'Missing or invalid credentials'));
  }
}
