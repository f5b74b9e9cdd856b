import { SMALL_BODY_BYTES, UNVERIFIED_BODIES_PER_ADDRESS, UnverifiedBodies } from './credentials-gate.hooks';

describe('UnverifiedBodies', () => {
  const MB = 1024 * 1024;

  it('holds at most 4 big bodies per address, others not affected, and gives a share back once', () => {
    const bodies = new UnverifiedBodies(100 * MB);
    const held = Array.from({ length: UNVERIFIED_BODIES_PER_ADDRESS }, () => bodies.reserve('192.0.2.1', MB));
    expect(held.every((r) => r !== undefined)).toBe(true);
    expect(bodies.reserve('192.0.2.1', MB)).toBeUndefined();
    expect(bodies.reserve('192.0.2.2', MB)).toBeDefined();
    held[0]?.();
    held[0]?.();
    expect(bodies.heldBytes).toBe(4 * MB);
    expect(bodies.reserve('192.0.2.1', MB)).toBeDefined();
    expect(bodies.reserve('192.0.2.1', MB)).toBeUndefined();
  });

  it('lets small bodies past the count of 4 per address, up to a sixteenth of the bytes per address, and never past the bytes', () => {
    const bodies = new UnverifiedBodies(SMALL_BODY_BYTES * 64);
    const small = Array.from({ length: 4 * 4 }, () => bodies.reserve('192.0.2.1', SMALL_BODY_BYTES / 4));
    expect(small.every((r) => r !== undefined)).toBe(true);
    // A sixteenth of the bytes is 4 small bodies' worth: the 17th quarter-size body from this address waits.
    expect(bodies.reserve('192.0.2.1', SMALL_BODY_BYTES / 4)).toBeUndefined();
    expect(bodies.reserve('192.0.2.3', SMALL_BODY_BYTES)).toBeDefined();
    small.forEach((release) => release?.());
    expect(bodies.heldBytes).toBe(SMALL_BODY_BYTES);
  });
});
