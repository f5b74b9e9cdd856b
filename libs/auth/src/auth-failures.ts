import { AuthError } from '@app/errors';

/**
 * What a 401 tells the caller: one stable message per rule, so an integrator can fix the call (docs/hmac.md lists
 * them with what to do). A message names the rule, never what was sent: no secret, hash, nonce, password or token.
 * Basic does not say whether the login or the password was wrong.
 */
export const AUTH_FAILURES = {
  noCredentials: 'No credentials: send X-Service-Nonce and X-Service-Hash (HMAC), or Authorization: Basic or Bearer',
  hashMissing: 'X-Service-Hash header missing: HMAC needs both X-Service-Nonce and X-Service-Hash',
  nonceMissing: 'X-Service-Nonce header missing: HMAC needs both X-Service-Nonce and X-Service-Hash',
  nonceForm: 'X-Service-Nonce not of its form: 8 to 128 characters of A-Z, a-z, 0-9, _ and - (e.g. 16 random bytes as 32 hex characters)',
  hashForm: 'X-Service-Hash not of its form: 64 hex characters (a hex HMAC-SHA256)',
  nonceUsed: 'X-Service-Nonce already used: send a new nonce with every request (a nonce is accepted once per customer within 24 h)',
  noKeyMatches:
    "X-Service-Hash matches no active API key: it must be the hex HMAC-SHA256 of nonce + ':' + the raw body (an empty string " +
    "for no body), keyed with the key's secret",
  basicForm: 'Authorization: Basic must carry base64 of login:password',
  basicWrong: 'Basic credentials wrong: the login or the password does not match',
  unsupportedScheme: 'Unsupported Authorization scheme: use Basic or Bearer, or no Authorization header and the HMAC headers',
  jwtNotAccepted: 'Bearer tokens are not accepted: the service has no JWT key configured',
  jwtMalformed: 'JWT malformed: expected header.payload.signature, base64url, with a JSON object as payload',
  jwtBadlySigned: "JWT badly signed: its signature does not verify with the service's JWT key and algorithm",
  jwtExpired: 'JWT expired: its exp is past',
  jwtNotYetValid: 'JWT not valid yet: its nbf is in the future',
  jwtWithoutExp: 'JWT lacks the required claim exp, or it is not a number (seconds since 1970)',
  jwtWithoutSub: 'JWT lacks the required claim sub (a non-empty string)',
  jwtWithoutPermissions: 'JWT lacks the required claim permissions (an array of permission names in dot notation, e.g. search.read)',
  jwtWithoutCustomer: 'JWT lacks the required claim customer (this service serves several customers)',
  jwtOtherCustomer: "JWT claim customer names another customer than the request's",
  jwtInstancesForm: 'JWT claim instances must be an array of instance names',
  unknownCustomer: "Unknown customer: the Host header's first label names no customer of this service",
  unknownInstance: 'Unknown instance: X-Service-Instance names no instance of this customer',
  instanceNotAllowed: 'Instance not allowed: this credential may not act on the instance named in X-Service-Instance',
  defaultInstanceNotAllowed:
    "Instance not allowed: this credential may not act on the customer's default instance; name one of its instances in " +
    'X-Service-Instance',
  noInstanceAllowed: 'Instance not allowed: this credential may act on no instance of this customer',
  metricsToken: 'This endpoint needs Authorization: Bearer with the metrics token (METRICS_TOKEN)',
  collectorMissing:
    'POST /1/events needs X-Algolia-Application-Id and X-Algolia-API-Key (a collector key), in the query string or as headers',
  collectorApplication: 'X-Algolia-Application-Id names no customer of this service (with BASE_DOMAIN: the customer of the Host)',
  collectorWrong:
    'X-Algolia-API-Key is no active collector key of this application: only a key made with the preset collector ' +
    'authenticates POST /1/events',
  analyticsApplication:
    'X-Algolia-Application-Id must name this customer (with BASE_DOMAIN: the customer of the Host) beside X-Algolia-API-Key',
  analyticsKeyWrong:
    'X-Algolia-API-Key is no active analytics key of this application: only a key made with the preset analytics is sent ' +
    'as it is (an HMAC key signs requests, a collector key is for POST /1/events)',
  analyticsMissing:
    "GET /2/... needs X-Algolia-Application-Id and X-Algolia-API-Key (an analytics key), or the service's own credentials " +
    '(Basic, Bearer, or X-Service-Nonce and X-Service-Hash)',
  algoliaKeyElsewhere:
    'X-Algolia-API-Key authenticates only GET /2/... (an analytics key) and POST /1/events (a collector key): here send ' +
    'Basic, Bearer, or X-Service-Nonce and X-Service-Hash',
} as const;

export type AuthFailure = keyof typeof AUTH_FAILURES;

/** A 401 naming the rule that failed; `detail` goes to the debug log only (it must not hold what was sent either). */
export function refused(rule: AuthFailure, detail?: string): AuthError {
  return new AuthError('unauthenticated', detail ? `${rule}: ${detail}` : rule, AUTH_FAILURES[rule]);
}
