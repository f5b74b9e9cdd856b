import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { compositeKey, type EntityType } from '@app/contracts';
import { IntakeClaimsRepository, claimOutcome, endedClaims, type RetryToken } from '@app/intake';
import { EntitiesRepository, type EntityState } from './entities.repository';
import { assertPreconditions, changed, checkSyntax, etagOf, type Preconditions } from './preconditions';

/** The entity a conditional save is about. */
export interface EntityKey {
  customer: string;
  instance: string;
  type: EntityType;
  id: string;
}

/** The ETag of the current entity; undefined when there is none (never saved, or deleted). */
const currentEtag = (state: EntityState | undefined) => (state?.entity ? etagOf(state.version) : undefined);

/**
 * Saves of one entity under If-Match / If-None-Match, exact across query processes sharing one store
 * (docs/decisions/0062-if-match-on-entities.md). Within a process, conditional saves of the same entity run
 * one after the other. Across processes, the save that changes the state of version V first claims the token
 * `entity:<type>:<id>:after:<V>` in `intake_claims`. The claims of a round (it ends when its claim is released or
 * silent for CLAIM_TTL_MS) carry one deduplication token, so the store keeps one of them; that one is the earliest
 * live claim and wins (checked twice, with the state), the others answer 412. The winner reads the state again and
 * writes only if it is still V. The claim is released when nothing was written; after a write it needs no
 * acknowledgement: the state's version moved on, so the token is never claimed again.
 */
@Injectable()
export class ConditionalSaves {
  /** Per entity, the end of the last conditional save queued in this process. */
  private readonly queued = new Map<string, Promise<unknown>>();

  constructor(
    private readonly entities: EntitiesRepository,
    private readonly claims: IntakeClaimsRepository,
  ) {}

  /**
   * Runs `write` if the preconditions hold, and (`claim`, for saves that change the state) if no other save of the
   * same state won its claim; otherwise 412 and `write` never runs. Malformed headers are 400.
   */
  run<T>(key: EntityKey, preconditions: Preconditions, claim: boolean, write: () => Promise<T>): Promise<T> {
    checkSyntax(preconditions);
    const queue = compositeKey(key.customer, key.instance, key.type, key.id);
    const task = () => this.checked(key, preconditions, claim, write);
    const result = (this.queued.get(queue) ?? Promise.resolve()).then(task, task);
    const done = result.catch(() => undefined);
    this.queued.set(queue, done);
    void done.then(() => this.queued.get(queue) === done && this.queued.delete(queue));
    return result;
  }

  private async checked<T>(key: EntityKey, preconditions: Preconditions, claim: boolean, write: () => Promise<T>): Promise<T> {
    const what = `${key.type} ${key.id}`;
    const before = await this.entities.state(key.customer, key.instance, key.type, key.id);
    assertPreconditions(preconditions, currentEtag(before), what);
    if (!claim) {
      return write();
    }
    const token: RetryToken = {
      customer: key.customer,
      instance: key.instance,
      token: `entity:${key.type}:${key.id}:after:${before?.version ?? 'none'}`,
    };
    const mine = randomUUID();
    // One claim per round: the claims of a round share a deduplication token, so the store keeps the first and
    // drops the others, atomically (a claim stamped first can become visible after another process's checks).
    const [earlier] = await this.claims.read([token]);
    const round = endedClaims(earlier.rows, earlier.nowMicros);
    await this.claims.record(
      [{ ...token, claim: mine, state: 'claimed' }],
      `${compositeKey(key.customer, key.instance, token.token)}/${round}`,
    );
    try {
      for (let read = 1; read <= 2; read++) {
        const [[claims], now] = await Promise.all([
          this.claims.read([token]),
          read === 2 ? this.entities.state(key.customer, key.instance, key.type, key.id) : before,
        ]);
        if (now?.version !== before?.version) {
          throw changed(what, currentEtag(now));
        }
        if (claimOutcome(claims.rows, mine, claims.nowMicros) !== 'mine') {
          throw changed(what);
        }
      }
      return await write();
    } catch (err) {
      // Before the answer, so a client's retry finds the round ended; should the release fail too, the claim ends
      // after CLAIM_TTL_MS (a save of the same state meanwhile is 412).
      await this.claims.record([{ ...token, claim: mine, state: 'released' }]).catch(() => undefined);
      throw err;
    }
  }
}
