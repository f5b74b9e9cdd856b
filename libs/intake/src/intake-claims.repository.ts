import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { ClaimRow, ClaimState } from './intake-claims';

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
      `SELECT claim, state, toUnixTimestamp64Micro(at) AS at_us, toUnixTimestamp64Micro(now64(6)) AS now_us
       FROM ${this.ch.table('intake_claims')}
       WHERE customer = {customer:String} AND instance = {instance:String} AND token = {token:String}
         AND at > now64(6) - INTERVAL 1 DAY`,
      { customer, instance, token },
    );
    const nowMicros = rows.length > 0 ? Number(rows[0].now_us) : 0;
    return { rows: rows.map((r) => ({ claim: r.claim, state: r.state, at: Number(r.at_us) })), nowMicros };
  }
}
