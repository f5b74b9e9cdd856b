import { CLAIM_TTL_MS, claimOutcome, endedClaims, type ClaimRow, type ClaimState } from './intake-claims';

const NOW = 1_700_000_000_000_000; // µs
const TTL_US = CLAIM_TTL_MS * 1000;
const claim = (id: string, state: ClaimState, at: number): ClaimRow => ({ claim: id, state, at });

describe('claimOutcome', () => {
  it('answers "mine" when its claim is the only one', () => {
    expect(claimOutcome([claim('a', 'claimed', NOW - 10)], 'a', NOW)).toBe('mine');
  });

  it('answers "mine" when its claim is the earliest live one', () => {
    const rows = [claim('b', 'claimed', NOW - 5), claim('a', 'claimed', NOW - 10)];
    expect(claimOutcome(rows, 'a', NOW)).toBe('mine');
  });

  it('answers "wait" while an earlier claim of another request is live', () => {
    const rows = [claim('a', 'claimed', NOW - 10), claim('b', 'claimed', NOW - 5)];
    expect(claimOutcome(rows, 'b', NOW)).toBe('wait');
  });

  it('answers "accepted" as soon as any claim was acknowledged, even when its own claim is earliest', () => {
    const rows = [claim('a', 'claimed', NOW - 10), claim('b', 'claimed', NOW - 5), claim('b', 'acked', NOW - 1)];
    expect(claimOutcome(rows, 'a', NOW)).toBe('accepted');
    expect(claimOutcome(rows, 'b', NOW)).toBe('accepted');
  });

  it('no longer waits for an earlier claim that was released', () => {
    const rows = [claim('a', 'claimed', NOW - 10), claim('b', 'claimed', NOW - 5), claim('a', 'released', NOW - 2)];
    expect(claimOutcome(rows, 'b', NOW)).toBe('mine');
  });

  it('applies a release whatever the order of the rows', () => {
    const rows = [claim('a', 'released', NOW - 2), claim('b', 'claimed', NOW - 5), claim('a', 'claimed', NOW - 10)];
    expect(claimOutcome(rows, 'b', NOW)).toBe('mine');
  });

  it('no longer waits for an earlier claim older than CLAIM_TTL_MS (a crashed process), counting exactly the TTL as expired', () => {
    expect(claimOutcome([claim('a', 'claimed', NOW - TTL_US), claim('b', 'claimed', NOW - 5)], 'b', NOW)).toBe('mine');
    expect(claimOutcome([claim('a', 'claimed', NOW - TTL_US + 1), claim('b', 'claimed', NOW - 5)], 'b', NOW)).toBe('wait');
  });

  it('keeps its own claim live past the TTL', () => {
    expect(claimOutcome([claim('a', 'claimed', NOW - 10 * TTL_US)], 'a', NOW)).toBe('mine');
  });

  it('breaks a tie in time by claim id, so every process picks the same producer', () => {
    const low = '0a1b2c3d-0000-4000-8000-000000000001';
    const high = 'f3b1c2d4-0000-4000-8000-000000000002';
    const rows = [claim(high, 'claimed', NOW - 5), claim(low, 'claimed', NOW - 5)];
    expect(claimOutcome(rows, low, NOW)).toBe('mine');
    expect(claimOutcome(rows, high, NOW)).toBe('wait');
    expect(claimOutcome([...rows].reverse(), high, NOW)).toBe('wait');
  });

  it('answers "wait" when its own claim is not among the rows read', () => {
    expect(claimOutcome([], 'a', NOW)).toBe('wait');
    expect(claimOutcome([claim('b', 'claimed', NOW - 5)], 'a', NOW)).toBe('wait');
  });
});

describe('endedClaims', () => {
  const claimAt = (claim: string, ageMs: number, state: ClaimState = 'claimed'): ClaimRow => ({ claim, state, at: NOW - ageMs * 1000 });

  it('counts the claims released or silent for CLAIM_TTL_MS, not the live ones nor the release rows', () => {
    expect(endedClaims([], NOW)).toBe(0);
    expect(endedClaims([claimAt('a', 10)], NOW)).toBe(0);
    expect(endedClaims([claimAt('a', 10), claimAt('a', 5, 'released')], NOW)).toBe(1);
    expect(endedClaims([claimAt('a', CLAIM_TTL_MS), claimAt('b', CLAIM_TTL_MS - 1)], NOW)).toBe(1);
    expect(endedClaims([claimAt('a', CLAIM_TTL_MS + 5), claimAt('a', 1, 'released'), claimAt('b', 2)], NOW)).toBe(1);
  });
});
