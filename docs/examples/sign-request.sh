#!/usr/bin/env bash
# Sends one HMAC-signed request and prints the answer's body, then its status on a line of its own.
#   BASE_URL=http://localhost:3000 SECRET=<the API key's secret> bash sign-request.sh METHOD PATH [BODY]
# INSTANCE=<name> adds X-Service-Instance. Needs bash, openssl and curl. Exits 1 on a status of 400 or more.
set -euo pipefail
method=${1:?usage: sign-request.sh METHOD PATH [BODY]}
path=${2:?usage: sign-request.sh METHOD PATH [BODY]}
body=${3-}
nonce=$(openssl rand -hex 16)
# The signed text is the nonce, a colon and the body exactly as sent (nothing after the colon when there is no body).
hash=$(printf '%s:%s' "$nonce" "$body" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
args=(-sS -X "$method" "$BASE_URL$path" -H "X-Service-Nonce: $nonce" -H "X-Service-Hash: $hash")
if [ -n "${INSTANCE-}" ]; then args+=(-H "X-Service-Instance: $INSTANCE"); fi
if [ -n "$body" ]; then args+=(-H 'Content-Type: application/json' --data-binary "$body"); fi
answer=$(curl "${args[@]}" -w '\n%{http_code}')
printf '%s\n' "$answer"
[ "${answer##*$'\n'}" -lt 400 ]
