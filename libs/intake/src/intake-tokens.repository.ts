import { Injectable } from '@nestjs/common';
import { ClickHouseService, inListParamGroups } from '@app/clickhouse';
import type { RetryToken } from './insert-batcher';

/**
 * The retry tokens of stored POST /events requests (SQL only): `intake_requests`, filled by a view in the same insert
 * as the request's rows, kept a day.
 */
@Injectable()
export class IntakeTokensRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** Which of these tokens were stored in the last day (a query per group that fits a server's URL). */
  async stored(tokens: readonly RetryToken[]): Promise<ReadonlySet<string>> {
    const stored = new Set<string>();
    for (const group of inListParamGroups(tokens, (t) => t.token)) {
      const rows = await this.ch.query<{ token: string }>(
        `SELECT DISTINCT token FROM ${this.ch.table('intake_requests')}
         WHERE customer IN {customers:Array(String)} AND instance IN {instances:Array(String)}
           AND token IN {tokens:Array(String)} AND received_at > now() - INTERVAL 1 DAY`,
        {
          customers: [...new Set(group.map((t) => t.customer))],
          instances: [...new Set(group.map((t) => t.instance))],
          tokens: group.map((t) => t.token),
        },
      );
      for (const r of rows) {
        stored.add(r.token);
      }
    }
    return stored;
  }
}
