import { AppError } from './app-error';

export type AuthErrorCode = 'unauthenticated' | 'forbidden';

/**
 * Authentication and authorisation failures. The message a client sees never says which check failed
 * (unknown key, bad hash, reused nonce, unknown instance all read the same), so it cannot be used as an oracle.
 * The one exception is a rule the client can act on and that only a valid credential reaches (a JWT whose
 * signature holds but whose lifetime is too long): its 401 names the rule.
 */
export class AuthError extends AppError {
  constructor(
    code: AuthErrorCode,
    /** For the log only; never sent to the client. */
    readonly reason: string,
    /** Safe to show: the missing permission name of a 403, or the rule a valid credential breaks. */
    publicMessage?: string,
  ) {
    super(code, reason, publicMessage ?? (code === 'forbidden' ? 'Forbidden' : 'Missing or invalid credentials'));
  }
}
