/**
 * Versions of one partition's documents in offset order: a message's own version (its timestamp in ns plus the
 * offset) unless that is not above the last one, then the last one + 1. A producer whose clock is behind cannot
 * make a later write of a document lose to an earlier one (the same id is always in the same partition).
 */
export class VersionSequence {
  constructor(private last: bigint) {}

  next(own: bigint): bigint {
    this.last = own > this.last ? own : this.last + 1n;
    return this.last;
  }
}
