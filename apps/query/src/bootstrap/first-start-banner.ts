import type { GeneratedCredentials } from '@app/auth';

/**
 * What a newcomer needs right after the first `npm start`: the generated credentials and a signed request
 * that works when pasted into a shell (as Jenkins prints its initial admin password). Printed to stdout, not
 * through the logger, so it never lands in log storage.
 */
export function firstStartBanner(c: GeneratedCredentials, baseUrl: string, dataDir: string): string {
  const line = '='.repeat(78);
  return `
${line}
First start: credentials were generated for customer "${c.customer}" (instances: ${c.instances.join(', ')}).
They are stored in ${dataDir} and shown only now.

  Basic login:     ${c.basicLogin}
  Basic password:  ${c.basicPassword}
  Legacy secret:   ${c.legacySecret}   (API key "legacy secret", Importer: search:write, persistence:write)

Try it: send one signed search event with the legacy secret

  SECRET='${c.legacySecret}'
  BODY='{"events":[{"phrase":"Blue Hat","language":"en","hits":3}]}'
  NONCE=$(openssl rand -hex 16)
  HASH=$(printf '%s' "$NONCE:$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
  curl -sS -X POST ${baseUrl}/events -H 'Content-Type: application/json' \\
    -H "X-Service-Nonce: $NONCE" -H "X-Service-Hash: $HASH" --data-binary "$BODY"

and list the API keys with Basic:  curl -sS -u '${c.basicLogin}:${c.basicPassword}' ${baseUrl}/secret
${line}
`;
}
