#!/usr/bin/env bash
# Builds the ClickHouse test server's launcher (tools/chdb-server) into .chdb-server/chdb-server. It needs only a C
# compiler: the engine it starts is the chdb npm package's libchdb.so, found at run time (bench/clickhouse-server.ts).
# With --install it installs gcc (root, apt-get) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v gcc >/dev/null; then
  if [ "${1:-}" = "--install" ]; then
    as_root=""
    [ "$(id -u)" = "0" ] || as_root="sudo"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq gcc libc6-dev >/dev/null
  else
    echo "gcc is missing: apt-get install gcc (or run with --install as root)" >&2
    exit 1
  fi
fi
mkdir -p .chdb-server
gcc -O2 -Wall -Wextra -o .chdb-server/chdb-server tools/chdb-server/chdb-server.c -ldl
echo "built .chdb-server/chdb-server"
