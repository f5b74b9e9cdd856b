import * as path from 'node:path';
import { INITIAL_CREDENTIALS_FILE, type GeneratedCredentials } from '@app/auth';

/**
 * What a newcomer needs right after the first `npm start`: where the dashboard, the API and its docs are, the
 * generated credentials and a signed request that works when pasted into a shell (as Jenkins prints its initial admin
 * password). Printed to stdout beside the JSON log lines, not as one of them; where stdout is collected (docker,
 * systemd) the collected output holds it until the Basic credentials are first used, after which no start prints
 * it (docs/operations.md: change the password with credentials:reset after the first sign-in there).
 */
export function firstStartBanner(c: GeneratedCredentials, baseUrl: string, dataDir: string): string {
  const line = '='.repeat(78);
  return `
${line}
First start: credentials were generated for customer "${c.customer}" (instances: ${c.instances.join(', ')}).
They are printed at every start until you sign in with the Basic login (until then a copy is kept
in ${path.join(dataDir, INITIAL_CREDENTIALS_FILE)}, mode 0600).
Lost them? Stop the service and run: npm run cli -- credentials:reset

  Dashboard:       ${baseUrl}/dashboard   (sign in with the Basic login)
  API:             ${baseUrl}
  API docs:        ${baseUrl}/docs

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
