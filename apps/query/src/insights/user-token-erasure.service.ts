import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseCluster, ClickHouseService } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { DataVersions } from '@app/intake';

/** How often erased user tokens' rows are deleted from storage (also once at start). */
export const ERASURE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * DELETE /1/usertokens/{userToken}: the token's hash goes into `erased_user_tokens`, which every engagement answer
 * leaves out (at once when computed from the raw tables, from the next refresh pass when computed ahead); a job at
 * start and then daily deletes the erased tokens' rows of `interactions` and the rejected items that name them (ALTER
 * TABLE ... DELETE, a mutation ClickHouse applies in the background), so they go within a day of the next run.
 */
@Injectable()
export class UserTokenErasure implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UserTokenErasure.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly versions: DataVersions,
    private readonly cluster: ClickHouseCluster,
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
    await this.cluster.mutate(
      `ALTER TABLE ${this.ch.table('interactions')} DELETE
       WHERE (customer, instance, user_token_hash) IN (${erased})
         OR (origin = 'insights' AND (customer, instance, session_hash) IN (${erased}))`,
    );
    // Rejected items keep a token as `sha256:<its hash>` (withHashedPersonalFields); a hash names its customer.
    await this.cluster.mutate(
      `ALTER TABLE ${this.ch.table('rejected_events')} DELETE
       WHERE hasAny(extractAll(raw, 'sha256:([0-9a-f]{64})'),
         (SELECT groupArray(user_token_hash) FROM ${this.ch.table('erased_user_tokens')} ${settled}))`,
    );
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
