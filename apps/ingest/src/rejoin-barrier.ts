import { PartitionAssigners, type PartitionAssigner } from 'kafkajs';

/** Where an assigner made by barrierAssigner() carries its barrier. */
const BARRIER = Symbol.for('search-analytics.ingest.rejoin-barrier');

/** The part of kafkajs' ConsumerGroup a barrier may read: the membership it is about to renew or end. */
export interface KafkaGroup {
  groupId: string;
  memberId: string | null;
  generationId: number | null;
  coordinator?: { heartbeat(request: { groupId: string; memberId: string; groupGenerationId: number }): Promise<unknown> };
}

type Barrier = (group: KafkaGroup) => Promise<void>;

/**
 * Resolves once the coordinator confirmed, with a heartbeat round trip of its own, that `group`'s member is still
 * a member of `generation`; throws otherwise (a member paused past the session timeout: UNKNOWN_MEMBER_ID; a
 * rebalance: REBALANCE_IN_PROGRESS; the generation moved on; the coordinator out of reach). Not kafkajs' shared
 * heartbeat: one already under way may have been sent before a pause, and it skips the request within its interval.
 */
export async function confirmMembership(group: KafkaGroup | undefined, generation: number | null): Promise<void> {
  if (!group?.memberId || !group.coordinator) {
    throw new Error('not a member of the group');
  }
  if (generation === null || group.generationId !== generation) {
    throw new Error(`the group moved from generation ${generation} to ${group.generationId}`);
  }
  await group.coordinator.heartbeat({ groupId: group.groupId, memberId: group.memberId, groupGenerationId: generation });
}
interface WithAssigners extends KafkaGroup {
  assigners?: Array<{ [BARRIER]?: Barrier }>;
}
type GroupMethod = (this: WithAssigners, ...args: unknown[]) => Promise<unknown>;

/**
 * kafkajs' round-robin assigner, carrying a barrier that kafkajs awaits before its consumer joins or leaves the group
 * (see installRejoinBarrier). The assigner is how a barrier reaches kafkajs' ConsumerGroup of exactly this consumer,
 * and how the consumer learns of that group (the barrier is called with it).
 */
export function barrierAssigner(barrier: Barrier): PartitionAssigner {
  return (config) => Object.assign(PartitionAssigners.roundRobin(config), { [BARRIER]: barrier });
}

/** `method` preceded by the barriers of the group's assigners. */
export function afterBarriers(method: GroupMethod): GroupMethod {
  return async function (this: WithAssigners, ...args: unknown[]) {
    for (const assigner of this.assigners ?? []) {
      await assigner[BARRIER]?.(this);
    }
    return method.apply(this, args);
  };
}

let installed = false;

/**
 * Makes kafkajs (2.2.x, pinned by package-lock.json) await the barriers before every join (the first one, and every
 * rejoin after a rebalance, a lost membership or a moved partition leader, whichever of its loops noticed it) and
 * before leaving the group (disconnect, crash). kafkajs has no hook for this; its ConsumerGroup is patched once, and
 * only consumers created with barrierAssigner() are affected.
 */
export function installRejoinBarrier(): void {
  if (installed) {
    return;
  }
  installed = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, not in its typings
  const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as { prototype: Record<'joinAndSync' | 'leave', GroupMethod> };
  for (const name of ['joinAndSync', 'leave'] as const) {
    ConsumerGroup.prototype[name] = afterBarriers(ConsumerGroup.prototype[name]);
  }
}
