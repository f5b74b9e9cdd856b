import type { Permission } from './permissions';

/** `collector`: a collector key, on POST /1/events only; `analytics`: an analytics key, on GET /2/... only. */
export type AuthScheme = 'hmac' | 'basic' | 'jwt' | 'collector' | 'analytics';

/** Who is calling, for which customer and instance, with which permissions. Set by the AuthGuard. */
export interface AuthContext {
  customer: string;
  instance: string;
  /** Every instance the credential may act on, in the customer's order (the default first when allowed). */
  instances: readonly string[];
  /**
   * Whether the credential names its instances (a JWT's instances claim, an API key's instances): then `instances` is
   * all it may ever act on. False: every instance of the customer, also ones added later (Basic, unlimited JWT or key).
   */
  limited: boolean;
  scheme: AuthScheme;
  permissions: ReadonlySet<Permission>;
  /** API key id (HMAC, collector or analytics key) or JWT subject or Basic login. */
  principal: string;
}

declare module 'http' {
  interface IncomingMessage {
    auth?: AuthContext;
    /** The exact body bytes as received (the HMAC covers them). */
    rawBody?: Buffer;
  }
}
