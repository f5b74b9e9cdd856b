import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';

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
  if (rows.some((r) => r.state === 'acked')) return 'accepted';
  const released = new Set(rows.filter((r) => r.state === 'released').map((r) => r.claim));
  const live = rows
    .filter((r) => r.state === 'claimed' && !released.has(r.claim) && (r.claim === mine || nowMicros - r.at < CLAIM_TTL_MS * 1000))
    .sort((a, b) => a.at - b.at || a.claim.localeCompare(b.claim));
  return live[0]?.claim === mine ? 'mine' : 'wait';
}

/** The claims table (SQL only); times come from the store's clock. */
@Injectable()
export class IntakeClaimsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  async record(customer: string, instance: string, token: string, claim: string, state: ClaimState): Promise<void> {
    await this.ch.insert('intake_claims', [{ customer, instance, token, claim, state }]);
  }

  async read(customer: string, instance: string, token: string): Promise<{ rows: ClaimRow[]; nowMicros: number }> {
    // Aliases differ from column names: ClickHouse resolves aliases in WHERE too.
    const rows = await this.ch.query<{ claim: string; state: ClaimState; at_us: string; now_us: string }>(
      `SELECT claim, state, toUnixTimestamp64Micro(at) AS at_us, toUnixTimestamp64Micro(now64(6)) AS now_us FROM ${this.ch.table('intake_claims')}
       WHERE customer = {customer:String} AND instance = {instance:String} AND token = {token:String} AND at > now64(6) - INTERVAL 1 DAY`,
      { customer, instance, token },
    );
    const nowMicros = rows.length > 0 ? Number(rows[0].now_us) : 0;
    return { rows: rows.map((r) => ({ claim: r.claim, state: r.state, at: Number(r.at_us) })), nowMicros };
  }
}
