import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseService, chDateTime } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { DataVersions } from '@app/intake';

/** How often erased user tokens' rows are deleted from storage (also once at start). */
export const ERASURE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * DELETE /1/usertokens/{userToken}: the token's hash goes into `erased_user_tokens`, which every engagement answer
 * leaves out at once; a job at start and then daily deletes the erased tokens' rows of `interactions` and the
 * rejected items that name them (ALTER TABLE ... DELETE, a mutation ClickHouse applies in the background), so they
 * go within a day of the next run.
 */
@Injectable()
export class UserTokenErasure implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UserTokenErasure.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly versions: DataVersions,
  ) {}

  /** Erases the token for each of the instances (those the credential may act on). */
  async erase(customer: string, instances: readonly string[], userToken: string): Promise<void> {
    const hash = personalHash(customer, userToken);
    const at = chDateTime().slice(0, 19);
    await this.ch.insert(
      'erased_user_tokens',
      instances.map((instance) => ({ customer, instance, user_token_hash: hash, at })),
    );
    // Cached answers of this process counted the token: stale from now on (other processes' expire by time).
    for (const instance of instances) {
      this.versions.bump(customer, instance);
    }
  }

  /**
   * Deletes the interactions of every erased token (each erased within the retention): by the user token's hash, and
   * an Insights event's anonymous `userToken` (kept in `session_hash` beside an `authenticatedUserToken`).
   */
  async purge(): Promise<void> {
    const erased = `SELECT customer, instance, user_token_hash FROM ${this.ch.table('erased_user_tokens')}`;
    await this.ch.command(
      `ALTER TABLE ${this.ch.table('interactions')} DELETE
       WHERE (customer, instance, user_token_hash) IN (${erased})
         OR (origin = 'insights' AND (customer, instance, session_hash) IN (${erased}))`,
    );
    // Rejected items keep a token as `sha256:<its hash>` (withHashedPersonalFields); a hash names its customer.
    await this.ch.command(
      `ALTER TABLE ${this.ch.table('rejected_events')} DELETE
       WHERE hasAny(extractAll(raw, 'sha256:([0-9a-f]{64})'),
         (SELECT groupArray(user_token_hash) FROM ${this.ch.table('erased_user_tokens')}))`,
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
