import { VersionSequence } from './version-sequence';

describe('VersionSequence', () => {
  it("takes a message's own version when it is above the last one", () => {
    const versions = new VersionSequence(100n);
    expect(versions.next(150n)).toBe(150n);
    expect(versions.next(151n)).toBe(151n);
  });

  it('gives last + 1 when the own version equals the last one', () => {
    expect(new VersionSequence(100n).next(100n)).toBe(101n);
  });

  it('keeps growing by one while a producer clock lags behind, then follows the clock again once it is ahead', () => {
    const versions = new VersionSequence(1_000n);
    expect([5n, 999n, 1n, 2_000n, 1_500n].map((own) => versions.next(own))).toEqual([1_001n, 1_002n, 1_003n, 2_000n, 2_001n]);
  });

  it('starts from 0 when nothing is stored', () => {
    const versions = new VersionSequence(0n);
    expect(versions.next(0n)).toBe(1n);
    expect(versions.next(1_699_999_999_000_000_042n)).toBe(1_699_999_999_000_000_042n);
  });
});
