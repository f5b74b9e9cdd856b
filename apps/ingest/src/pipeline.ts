/** Settles when `promise` has (fulfilled or not). */
export const settled = (promise?: Promise<unknown>) =>
  Promise.resolve(promise).then(
    () => undefined,
    () => undefined,
  );

/** `then` once both have settled, failing with the first failure; so nothing of either is still running when it fails. */
export async function afterBoth(earlier: Promise<unknown> | undefined, own: Promise<unknown>, then: () => Promise<void>): Promise<void> {
  const [before, mine] = await Promise.allSettled([earlier, own]);
  if (mine.status === 'rejected') {
    throw mine.reason;
  }
  if (before.status === 'rejected') {
    throw before.reason;
  }
  await then();
}
