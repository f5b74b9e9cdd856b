import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';

/**
 * Bot verdicts from the maintained `isbot` pattern list, cached per user agent: the same few thousand agents
 * repeat all day, and the pattern match is the costly part of validating an event.
 */
export class BotDetector {
  private readonly verdicts = new LRUCache<string, boolean>({ max: 50_000 });

  /** An explicit flag wins; otherwise the user agent decides; no user agent means not a bot. */
  isBot(explicit: boolean | undefined, userAgent: string | undefined): boolean {
    if (explicit !== undefined) {
      return explicit;
    }
    if (!userAgent) {
      return false;
    }
    let verdict = this.verdicts.get(userAgent);
    if (verdict === undefined) {
      verdict = isbot(userAgent);
      this.verdicts.set(userAgent, verdict);
    }
    return verdict;
  }
}
