/** The form of X-Service-Nonce the service accepts (the documented form, 32 lowercase hex characters, is one of them). */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
/** The form of X-Service-Hash: a hex HMAC-SHA256. */
export const HASH_PATTERN = /^[0-9a-fA-F]{64}$/;

/**
 * The request headers of HMAC authentication and of the instance choice (any scheme). The OpenAPI document
 * declares them once, as reusable parameters (libs/http, openapi.ts).
 */
export const AUTH_HEADERS = [
  {
    name: 'X-Service-Nonce',
    required: false,
    description: 'HMAC: used once; the documented form is 16 random bytes as 32 lowercase hex characters (docs/hmac.md)',
    schema: { type: 'string', pattern: NONCE_PATTERN.source, example: '9f86d081884c7d659a2feaa0c55ad015' },
  },
  {
    name: 'X-Service-Hash',
    required: false,
    description: "HMAC: hex HMAC-SHA256 of nonce + ':' + the body exactly as sent (empty when none), keyed with the API key's secret",
    schema: { type: 'string', pattern: HASH_PATTERN.source },
  },
  {
    name: 'X-Service-Instance',
    required: false,
    description: "The instance to act on (any scheme); default: the customer's first instance",
    schema: { type: 'string', example: 'live' },
  },
];
