/**
 * Errors that say storage did not answer rather than refused: the ClickHouse server the URL reaches is down, or, in
 * cluster mode, a shard a Distributed query or insert needs is (the server relays it with one of these codes), or a
 * Replicated table cannot reach Keeper. The
 * request is answered 503 with Retry-After: it did not happen, or (an insert) happens again exactly on a retry.
 */
const CLICKHOUSE_CODES = new Set([
  '159', // TIMEOUT_EXCEEDED
  '209', // SOCKET_TIMEOUT
  '210', // NETWORK_ERROR
  '225', // NO_ZOOKEEPER: a Replicated table without Keeper
  '236', // ABORTED: a shard's connection ended mid-query (a server stopping)
  '242', // TABLE_IS_READ_ONLY: a replica that lost Keeper
  '279', // ALL_CONNECTION_TRIES_FAILED
  '999', // KEEPER_EXCEPTION
  '1000', // POCO_EXCEPTION: connection refused or reset below the protocol
]);
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function storageUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') {
    return false;
  }
  // The client's ClickHouseError carries the server's code; a socket error carries Node's.
  return (CLICKHOUSE_CODES.has(code) && (err as { type?: unknown }).type !== undefined) || NODE_CODES.has(code);
}

/** What a client reads then, and when to retry. */
export const STORAGE_UNREACHABLE = {
  message: 'Storage is unavailable: a ClickHouse server or shard does not answer; retry',
  retryAfterSeconds: 5,
};
