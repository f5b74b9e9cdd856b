import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseCluster, ClickHouseService, MigrationLock } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { DataVersions } from '@app/intake';
import { DimensionRefresh } from '../analytics/dimension-refresh';

/** How often erased user tokens' rows are deleted from storage (also once at start). */
export const ERASURE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * DELETE /1/usertokens/{userToken}: the token's hash goes into `erased_user_tokens`, which every engagement answer
 * leaves out (at once when computed from the raw tables, from the next refresh pass when computed ahead); a job at
 * start and then daily deletes the erased tokens' rows of `interactions` and the rejected items that name them (ALTER
 * TABLE ... DELETE, a mutation ClickHouse applies in the background), so they go within a day of the next run. Search
 * events keep counting: they lose the token (`user_hash`), and the hours of the dimension rows that held it in
 * their users, computed ahead before the erasure, are computed again without it (forgetSearchTokens).
 */
@Injectable()
export class UserTokenErasure implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UserTokenErasure.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly versions: DataVersions,
    private readonly cluster: ClickHouseCluster,
    private readonly dimensions: DimensionRefresh,
  ) {}

  /** Erases the token for each of the instances (those the credential may act on). */
  async erase(customer: string, instances: readonly string[], userToken: string): Promise<void> {
    // `at` by storage's clock, as the engagement refresh compares it with its passes (EngagementRefresh).
    await this.ch.command(
      `INSERT INTO ${this.ch.table('erased_user_tokens')} (customer, instance, user_token_hash, at)
       SELECT {customer:String}, arrayJoin({instances:Array(String)}), {hash:String}, now('UTC')`,
      { customer, instances: [...instances], hash: personalHash(customer, userToken) },
    );
    // Cached answers of this process counted the token: stale from now on (other processes' expire by time).
    for (const instance of instances) {
      this.versions.bump(customer, instance);
    }
  }

  /**
   * Deletes the interactions of every erased token (each erased within the retention): by the user token's hash, and
   * an Insights event's anonymous `userToken` (kept in `session_hash` beside an `authenticatedUserToken`). While
   * engagement figures are computed ahead (a refresh pass within a day, in any process), only tokens erased 10 minutes
   * before the last complete pass began: that pass found the hours their interactions counted in (EngagementRefresh),
   * which no pass could once they are gone.
   */
  async purge(): Promise<void> {
    const passes = this.ch.table('engagement_passes');
    const settled = `WHERE at < (SELECT max(at) FROM ${passes}) - toIntervalMinute(10) OR (SELECT count() FROM ${passes}) = 0`;
    const erased = `SELECT customer, instance, user_token_hash FROM ${this.ch.table('erased_user_tokens')} ${settled}`;
    // Each step whatever the others did; a failure of any fails the run (logged by the job), after all have run.
    const steps = await Promise.allSettled([
      this.cluster.mutate(
        `ALTER TABLE ${this.ch.table('interactions')} DELETE
         WHERE (customer, instance, user_token_hash) IN (${erased})
           OR (origin = 'insights' AND (customer, instance, session_hash) IN (${erased}))`,
      ),
      // Rejected items keep a token as `sha256:<its hash>` (withHashedPersonalFields); a hash names its customer.
      this.cluster.mutate(
        `ALTER TABLE ${this.ch.table('rejected_events')} DELETE
         WHERE hasAny(extractAll(raw, 'sha256:([0-9a-f]{64})'),
           (SELECT groupArray(user_token_hash) FROM ${this.ch.table('erased_user_tokens')} ${settled}))`,
      ),
      this.forgetSearchTokens(),
    ]);
    const failed = steps.filter((step): step is PromiseRejectedResult => step.status === 'rejected');
    if (failed.length > 0) {
      throw new Error(failed.map((step) => (step.reason as Error).message).join('; '));
    }
  }

  /**
   * Search events of erased tokens. The dimension rows never count an erased hash in their users (usersState leaves
   * it out), so what remains is the hours computed ahead before the erasure: every complete hour of the token's
   * searches is computed again under a new version (DimensionRefresh.recompute), then the events lose the token. In
   * that order, so that a run cut in between is done again by the next (the events still name the token). Under the
   * lock the migrations take (one process at a time, a waiting one stops when nothing is left).
   */
  async forgetSearchTokens(): Promise<void> {
    const erased = `SELECT customer, instance, user_token_hash FROM ${this.ch.table('erased_user_tokens')}`;
    const named = `(customer, instance, user_hash) IN (${erased}) OR (customer, instance, session_hash) IN (${erased})`;
    const affected = `SELECT DISTINCT customer, instance, toStartOfHour(ts) AS hour FROM ${this.ch.table('search_events')}
      WHERE (user_hash != '' OR session_hash != '') AND (${named})`;
    const left = async () => Number((await this.ch.query<{ n: string }>(`SELECT toString(count()) AS n FROM (${affected})`))[0].n);
    if ((await left()) === 0) {
      return;
    }
    const tenants = await this.ch.query<{ customer: string; instance: string }>(`SELECT DISTINCT customer, instance FROM (${affected})`);
    const lock = new MigrationLock(await this.cluster.designated());
    if (!(await lock.acquire(async () => (await left()) === 0))) {
      return;
    }
    try {
      // Every complete hour, computed or not: a pass running meanwhile may record one it read before the erasure.
      const hours = await this.ch.query<{ customer: string; instance: string; hours: Array<string | number> }>(
        `SELECT customer, instance, groupUniqArray(toUnixTimestamp(hour)) AS hours FROM (${affected}) GROUP BY customer, instance`,
      );
      await this.dimensions.recompute(hours.map((r) => ({ ...r, hours: r.hours.map((h) => Number(h) * 1000) })));
      await this.cluster.mutate(
        `ALTER TABLE ${this.ch.table('search_events')}
         UPDATE user_hash = if((customer, instance, user_hash) IN (${erased}), '', user_hash),
           session_hash = if((customer, instance, session_hash) IN (${erased}), '', session_hash)
         WHERE ${named} SETTINGS mutations_sync = 2`,
      );
    } finally {
      await lock.release();
    }
    // Answers this process cached counted the token among the users: stale from now on.
    for (const { customer, instance } of tenants) {
      this.versions.bump(customer, instance);
    }
  }

  onApplicationBootstrap(): void {
    const run = (): void =>
      void this.purge().catch((err: unknown) =>
        this.logger.warn(`deleting erased user tokens' interactions failed: ${(err as Error).message}`),
      );
    run();
    this.timer = setInterval(run, ERASURE_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
