import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import { compositeKey } from '@app/contracts';
import type { ClaimRow, ClaimState } from './intake-claims';
import type { RetryToken } from './insert-batcher';

/** One row of the claims table: a request's claim on its token, or what became of it. */
export interface ClaimRecord extends RetryToken {
  claim: string;
  state: ClaimState;
}

/** The claim rows of one token, and the store's time of the read (µs since the epoch). */
export interface ClaimsRead {
  rows: ClaimRow[];
  nowMicros: number;
}

/** The claims table (SQL only); times come from the store's clock. Callers batch: one insert or read for many tokens. */
@Injectable()
export class IntakeClaimsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** One insert; with `dedupToken`, dropped when an insert with that token was stored before (a claim round's). */
  async record(records: readonly ClaimRecord[], dedupToken?: string): Promise<void> {
    await this.ch.insert(
      'intake_claims',
      records.map(({ customer, instance, token, claim, state }) => ({ customer, instance, token, claim, state })),
      dedupToken,
    );
  }

  /** One query: the claim rows of the last day of each token, in the order of `tokens`. */
  async read(tokens: readonly RetryToken[]): Promise<ClaimsRead[]> {
    // Aliases differ from column names: ClickHouse resolves aliases in WHERE too. Both lists on the table's key; a
    // row of one request's tenant and another's token is dropped below.
    const rows = await this.ch.query<{
      customer: string;
      instance: string;
      token: string;
      claim: string;
      state: ClaimState;
      at_us: string;
      now_us: string;
    }>(
      `SELECT customer, instance, token, claim, state, toUnixTimestamp64Micro(at) AS at_us,
              toUnixTimestamp64Micro(now64(6)) AS now_us
       FROM ${this.ch.table('intake_claims')}
       WHERE customer IN {customers:Array(String)} AND instance IN {instances:Array(String)}
         AND token IN {tokens:Array(String)} AND at > now64(6) - INTERVAL 1 DAY`,
      {
        customers: [...new Set(tokens.map((t) => t.customer))],
        instances: [...new Set(tokens.map((t) => t.instance))],
        tokens: [...new Set(tokens.map((t) => t.token))],
      },
    );
    const nowMicros = rows.length > 0 ? Number(rows[0].now_us) : 0;
    const byToken = new Map<string, ClaimRow[]>();
    for (const r of rows) {
      const key = compositeKey(r.customer, r.instance, r.token);
      const found = byToken.get(key) ?? [];
      found.push({ claim: r.claim, state: r.state, at: Number(r.at_us) });
      byToken.set(key, found);
    }
    return tokens.map((t) => ({ rows: byToken.get(compositeKey(t.customer, t.instance, t.token)) ?? [], nowMicros }));
  }
}
