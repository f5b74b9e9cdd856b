import { Injectable } from '@nestjs/common';
import { ClickHouseService, inListParamGroups, readOnce, rowsBeforeMigration } from '@app/clickhouse';
import type { RetryToken } from './insert-batcher';
import { INTERACTIONS_TARGET } from './intake-kinds';

const DAY_MS = 86_400_000;

/** The name under which a request's interactions are stored (IntakeKind.retryTokenOf): `<token>:interactions`. */
const INTERACTIONS_SUFFIX = `:${INTERACTIONS_TARGET.tokenSuffix}`;

/**
 * The retry tokens of stored POST /events requests (SQL only), read from the rows themselves: `search_events` and
 * `interactions` carry the token of the request that wrote them (`intake_token`).
 *
 * Never from a table a view fills (`intake_requests`, issue 43): an insert writes its table, then each view, and a
 * process killed in between leaves the rows stored without the view's record, so the client's retry would store them
 * twice. A table's own rows are written atomically with the insert (one block), so a token is found there exactly
 * when that table holds the request's rows (docs/decisions/0070-retries-read-the-raw-rows.md).
 */
@Injectable()
export class IntakeTokensRepository {
  /** When retry tokens began (migration 0015, ms), if rows without a token were received in the day before it. */
  private readonly legacyBefore = readOnce(() => rowsBeforeMigration(this.ch, '0015-intake-tokens', "intake_token = ''", true));

  constructor(private readonly ch: ClickHouseService) {}

  /**
   * Which of these tokens were stored in the last day (a query per group that fits a server's URL). A token ending
   * in `:interactions` is looked up in `interactions` (without the suffix), any other in `search_events`.
   *
   * A token is stored when any row carries it, whatever the signs: rows with it prove the request's insert happened,
   * which is what a retry asks. A row of sign < 0 is a compensation written after the rows it copies (apps/ingest,
   * DuplicateOffsets: 1 - copies, so they sum to 1), never instead of them. Rows summing to 0 or less would be events
   * cancelled on purpose after they were stored; storing the retry would bring them back. So rows, not sum(sign).
   */
  async stored(tokens: readonly RetryToken[]): Promise<ReadonlySet<string>> {
    const stored = new Set<string>();
    for (const group of inListParamGroups(tokens, (t) => t.token)) {
      const interactions = group.filter((t) => t.token.endsWith(INTERACTIONS_SUFFIX));
      const searches = group.filter((t) => !t.token.endsWith(INTERACTIONS_SUFFIX));
      // Each table is asked only for its own tokens, as they are in its `intake_token`.
      const lookups = [
        ...(searches.length > 0 ? [this.lookup('search_events', 'searches', '')] : []),
        ...(interactions.length > 0 ? [this.lookup('interactions', 'interactions', INTERACTIONS_SUFFIX)] : []),
      ];
      const rows = await this.ch.query<{ token: string }>(lookups.join(' UNION ALL '), {
        customers: [...new Set(group.map((t) => t.customer))],
        instances: [...new Set(group.map((t) => t.instance))],
        ...(searches.length > 0 && { searches: searches.map((t) => t.token) }),
        ...(interactions.length > 0 && { interactions: interactions.map((t) => t.token.slice(0, -INTERACTIONS_SUFFIX.length)) }),
      });
      for (const r of rows) {
        stored.add(r.token);
      }
    }
    for (const token of await this.storedBeforeTokens(tokens.filter((t) => !stored.has(t.token)))) {
      stored.add(token);
    }
    return stored;
  }

  /**
   * The tokens of requests that a release before retry tokens stored (docs/upgrading.md): its rows carry no token
   * (`intake_token` ''), and it deduplicated through the engine's block log, which holds only the last 10,000 inserts.
   * Such a request's retry is found by its search events' ids among the rows received before migration
   * 0015-intake-tokens, in the last day: stored when every id is there (the old release wrote a request in one
   * insert, so all its rows or none). Asked only during the day after that upgrade, and only when it found rows.
   */
  private async storedBeforeTokens(tokens: readonly RetryToken[]): Promise<string[]> {
    const candidates = tokens.filter((t) => !t.token.endsWith(INTERACTIONS_SUFFIX) && (t.searchIds?.length ?? 0) > 0);
    if (candidates.length === 0) {
      return [];
    }
    const before = await this.legacyBefore();
    if (before === undefined || Date.now() > before + DAY_MS) {
      return [];
    }
    // Each request's ids are looked for within its own tenant.
    const found = new Set(
      (
        await this.ch.query<{ key: string }>(
          `SELECT DISTINCT concat(customer, '/', instance, '/', toString(event_id)) AS key FROM ${this.ch.table('search_events')}
           WHERE customer IN {customers:Array(String)} AND instance IN {instances:Array(String)} AND intake_token = ''
             AND received_at > now() - INTERVAL 1 DAY AND received_at < fromUnixTimestamp64Milli({before:Int64}, 'UTC')
             AND toString(event_id) IN {ids:Array(String)}`,
          {
            customers: [...new Set(candidates.map((t) => t.customer))],
            instances: [...new Set(candidates.map((t) => t.instance))],
            before,
            ids: [...new Set(candidates.flatMap((t) => t.searchIds!))],
          },
        )
      ).map((r) => r.key),
    );
    return candidates.filter((t) => t.searchIds!.every((id) => found.has(`${t.customer}/${t.instance}/${id}`))).map((t) => t.token);
  }

  /**
   * The tokens of list `param` that `table` holds rows of, received in the last day, named with `suffix`.
   * The key (customer, instance, ts) narrows it to the tenant only, as `ts` is the client's time: the indexes of
   * migration 0026 skip the rest, so both conditions are on the columns themselves (`intake_token IN`, a bloom
   * filter; `received_at >`, a minmax).
   */
  private lookup(table: string, param: string, suffix: string): string {
    return `SELECT DISTINCT concat(intake_token, '${suffix}') AS token FROM ${this.ch.table(table)}
      WHERE customer IN {customers:Array(String)} AND instance IN {instances:Array(String)}
        AND intake_token IN {${param}:Array(String)} AND received_at > now() - INTERVAL 1 DAY`;
  }
}
