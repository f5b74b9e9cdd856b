#!/usr/bin/env bash
# Builds the Kafka test broker (tools/kafka-mock) into .kafka-mock/kafka-mock.
# Needs Debian's librdkafka-dev; with --install it installs it (root, apt-get) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f /usr/include/librdkafka/rdkafka_mock.h ]; then
  if [ "${1:-}" = "--install" ]; then
    as_root=""
    [ "$(id -u)" = "0" ] || as_root="sudo"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq librdkafka-dev gcc >/dev/null
  else
    echo "librdkafka-dev is missing: apt-get install librdkafka-dev (or run with --install as root)" >&2
    exit 1
  fi
fi
mkdir -p .kafka-mock
gcc -O2 -Wall -o .kafka-mock/kafka-mock tools/kafka-mock/kafka-mock.c -lrdkafka
echo "built .kafka-mock/kafka-mock"
