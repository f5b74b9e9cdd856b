export type ClaimState = 'claimed' | 'acked' | 'released';

export interface ClaimRow {
  claim: string;
  state: ClaimState;
  /** Store time, µs since the epoch. */
  at: number;
}

/** A claim that has been neither acknowledged nor released for this long no longer blocks others (a crashed process). */
export const CLAIM_TTL_MS = 30_000;

/**
 * What a request holding `mine` does, from every claim row of its token (read after its own claim was stored):
 * 'accepted' when a claim was acknowledged; 'mine' when its claim is the earliest live one (it produces); 'wait'
 * while an earlier claim is live. All processes read the same rows in the same order, so exactly one produces.
 */
export function claimOutcome(rows: readonly ClaimRow[], mine: string, nowMicros: number): 'accepted' | 'mine' | 'wait' {
  if (rows.some((r) => r.state === 'acked')) {
    return 'accepted';
  }
  const released = releasedClaims(rows);
  const live = rows
    .filter((r) => r.state === 'claimed' && !released.has(r.claim) && (r.claim === mine || !silent(r, nowMicros)))
    .sort((a, b) => a.at - b.at || a.claim.localeCompare(b.claim));
  return live[0]?.claim === mine ? 'mine' : 'wait';
}

/**
 * How many claims of a token have ended, released or silent for CLAIM_TTL_MS (a crashed holder): the number of the
 * round a new claim belongs to, where each round must hold one claim (ConditionalSaves).
 */
export function endedClaims(rows: readonly ClaimRow[], nowMicros: number): number {
  const released = releasedClaims(rows);
  return rows.filter((r) => r.state === 'claimed' && (released.has(r.claim) || silent(r, nowMicros))).length;
}

const releasedClaims = (rows: readonly ClaimRow[]) => new Set(rows.filter((r) => r.state === 'released').map((r) => r.claim));

/** A claim neither acknowledged nor released for CLAIM_TTL_MS no longer blocks others. */
const silent = (r: ClaimRow, nowMicros: number) => nowMicros - r.at >= CLAIM_TTL_MS * 1000;
