/**
 * Versions for append-only rows: nanoseconds since the epoch plus a counter, strictly increasing within a
 * process, so two writes in the same millisecond never tie (wall-clock ties would let the older row win).
 * Returned as a decimal string because UInt64 does not fit a JavaScript number.
 */
let last = 0n;
const origin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

export function nextVersion(): string {
  let now = origin + process.hrtime.bigint();
  if (now <= last) now = last + 1n;
  last = now;
  return now.toString();
}

