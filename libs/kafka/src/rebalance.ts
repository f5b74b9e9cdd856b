/**
 * The errors after which kafkajs must rejoin the group (what its runner checks, UNKNOWN_MEMBER_ID included), with the
 * message kafkajs gives each (its protocol error table): its logs carry the message, not the type.
 */
export const REBALANCE_ERRORS: Readonly<Record<string, string>> = {
  REBALANCE_IN_PROGRESS: 'The group is rebalancing, so a rejoin is needed',
  NOT_COORDINATOR_FOR_GROUP: 'This is not the correct coordinator for this group',
  ILLEGAL_GENERATION: 'Specified group generation id is not valid',
  UNKNOWN_MEMBER_ID: 'The coordinator is not aware of this member',
};

/** Whether an error (by its type), or the message kafkajs logs for one, is one after which kafkajs rejoins the group. */
export function isRebalance(err: unknown): boolean {
  if (typeof err === 'string') {
    return Object.values(REBALANCE_ERRORS).includes(err);
  }
  return Object.hasOwn(REBALANCE_ERRORS, (err as { type?: string })?.type ?? '');
}
