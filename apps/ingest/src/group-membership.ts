/** kafkajs' heartbeat interval for a session timeout: every 3 s, or a third of a shorter session timeout. */
export function heartbeatIntervalMs(sessionTimeoutMs: number): number {
  return Math.min(3000, Math.floor(sessionTimeoutMs / 3));
}

/**
 * Whether this process is a member of its consumer group, for readiness: joined (kafkajs' GROUP_JOIN) and not left
 * since (CRASH, DISCONNECT, STOP), with a heartbeat answered (or the join) within `boundMs`. kafkajs heartbeats
 * every heartbeat interval even when idle (from its fetch loop), so a broker out of reach shows once two intervals
 * passed without an answer; the bound is at least half the session timeout (a heartbeat delayed by a slow batch,
 * which kafkajs heartbeats only between batches, must not flap readiness while the broker keeps the member) and
 * always under it: readiness turns before the broker would drop the member. docs/decisions/0021-health-that-tells-the-truth.md.
 */
export class GroupMembership {
  readonly boundMs: number;
  private member = false;
  private answeredAt = 0;
  private reason = 'the consumer group has not been joined yet';

  constructor(sessionTimeoutMs: number) {
    this.boundMs = Math.max(2 * heartbeatIntervalMs(sessionTimeoutMs), Math.floor(sessionTimeoutMs / 2));
  }

  joined(now = Date.now()): void {
    this.member = true;
    this.answeredAt = now;
  }

  heartbeat(now = Date.now()): void {
    this.answeredAt = now;
  }

  left(reason: string): void {
    this.member = false;
    this.reason = reason;
  }

  state(now = Date.now()): { joined: boolean; reason?: string } {
    if (!this.member) {
      return { joined: false, reason: this.reason };
    }
    const silentMs = now - this.answeredAt;
    if (silentMs > this.boundMs) {
      return { joined: false, reason: `no heartbeat answered for ${silentMs} ms (the broker out of reach, or the group rebalancing)` };
    }
    return { joined: true };
  }
}
