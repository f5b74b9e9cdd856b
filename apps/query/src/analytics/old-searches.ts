import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ClickHouseService, readOnce, rowsBeforeMigration } from '@app/clickhouse';

/** Changes are read from this long before the run before began (a row's time is taken a little before it is visible). */
const MARGIN_MS = 5 * 60_000;

/**
 * Searches stored before migration 0016 (docs/upgrading.md): the release that stored them wrote either the client's
 * id or a generated one into `event_id`, and kept no mark of which, so 0016 counted them all as untracked
 * (`id_sent` false). A generated id is never shown to anyone, so an id that a click or conversion names is the
 * client's: such a search becomes tracked, and its interactions count for its term.
 *
 * Each of its rows is moved to `id_sent` true by a pair of rows in one insert: a copy with sign -1 as it was and a
 * copy with sign +1 marked sent. Every rollup counts the pair as 0 (both in the same buckets), while the views that
 * read sent ids only (`search_ids`, `engagement_changes`) record the id, so the next engagement pass computes its
 * hour. Adopting an id twice (a kill between the pair and `search_ids`, repaired by the storage check) changes no
 * count: the raw sum stays, and a search id counts once however many sent copies it has.
 *
 * It writes `search_events`, so it runs on the main connection, never in a lane (the storage check's premise,
 * docs/architecture.md "A kill at any moment").
 */
@Injectable()
export class OldSearches {
  /** When migration 0016 was applied (ms), if searches were stored before it. */
  private readonly before = readOnce(() => rowsBeforeMigration(this.ch, '0016-interactions'));
  /** Where the next run reads changes from (ms): every change kept, the first time. */
  private since = 0;

  private readonly logger = new Logger('OldSearches');

  constructor(private readonly ch: ClickHouseService) {}

  /**
   * Makes tracked the old searches that interactions stored since the run before name. Answers how many rows; a
   * failure is logged (the next run reads from the same time).
   */
  adopt(): Promise<number> {
    return this.run().catch((err: Error) => {
      this.logger.warn(`old searches not adopted (${err.message}); the next engagement pass tries again`);
      return 0;
    });
  }

  private async run(): Promise<number> {
    const before = await this.before();
    if (before === undefined) {
      return 0;
    }
    const began = Date.now();
    const changes = `SELECT customer, instance, search_id FROM ${this.ch.table('engagement_changes')}
      WHERE inserted_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')`;
    const params = { since: this.since, before };
    // The searches named since that no sent id is known for: rare, and only they send the scan to the old rows.
    const unknown = `SELECT customer, instance, search_id FROM (${changes})
      WHERE (customer, instance, search_id) NOT IN (
        SELECT customer, instance, search_id FROM ${this.ch.table('search_ids')} WHERE (customer, instance, search_id) IN (${changes}))`;
    const [{ u }] = await this.ch.query<{ u: string }>(`SELECT toString(count()) AS u FROM (${unknown})`, params);
    if (Number(u) === 0) {
      this.since = began - MARGIN_MS;
      return 0;
    }
    const old = `FROM ${this.ch.table('search_events')}
      WHERE NOT id_sent AND sign > 0 AND received_at < fromUnixTimestamp64Milli({before:Int64}, 'UTC')
        AND (customer, instance, event_id) IN (${unknown})`;
    const [{ n }] = await this.ch.query<{ n: string }>(`SELECT toString(count()) AS n ${old}`, params);
    if (Number(n) > 0) {
      // The sign and the mark are replaced outside the subquery: an alias in its SELECT list would be what WHERE reads.
      await this.ch.command(
        `INSERT INTO ${this.ch.table('search_events')} SETTINGS insert_deduplication_token = '${randomUUID()}'
         SELECT * EXCEPT (pair_sign) REPLACE (pair_sign AS sign, pair_sign > 0 AS id_sent, now64(3, 'UTC') AS received_at)
         FROM (SELECT *, arrayJoin([toInt8(-1), toInt8(1)]) AS pair_sign ${old})`,
        params,
      );
    }
    this.since = began - MARGIN_MS;
    return Number(n);
  }
}
