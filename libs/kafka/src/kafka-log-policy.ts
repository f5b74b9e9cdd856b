import { logLevel, type LogEntry } from 'kafkajs';
import { isRebalance } from './rebalance';

export interface KafkaLogLine {
  level: 'error' | 'warn' | 'info' | 'debug';
  text: string;
}

/**
 * kafkajs' runner's lines when it rejoins the group. The error they name may be the application's own (a batch handed
 * back with a rebalance type), so the message decides.
 */
const REJOINING = new Map<string, KafkaLogLine['level']>([
  ['The group is rebalancing, re-joining', 'info'],
  // The coordinator dropped this member (it missed its session timeout, or the coordinator lost the group).
  ['The coordinator is not aware of this member, re-joining the group', 'warn'],
]);

/** A failed attempt to reach a broker, as kafkajs' Connection logs it (with the broker's host:port). */
const ATTEMPT_FAILED = /^Connection (error|timeout)/;
/** Lines about the same failure from further up (BrokerPool, the consumer's crash and restart). */
const ABOUT_CONNECTION = /Connection error|Connection timeout|Closed connection|No broker available|^Failed to connect to (seed )?broker/;

/**
 * Which level a kafkajs log line deserves, for the logs an operator reads (docs/operations.md, Logs):
 * - A rebalance is routine: kafkajs' lines about one (a heartbeat or commit answered "rebalancing", the rejoin, a
 *   batch handed back with a rebalance error) are info. That the coordinator no longer knows this member (it missed
 *   its session timeout) is worth a warning: one, the runner's line about the rejoin.
 * - A broker that cannot be reached is logged once per state change: a warning at the first failed attempt, the
 *   following ones (and the lines kafkajs adds about them: the seed broker, the consumer's crash and restart) only
 *   counted, at debug, and one info line once a request to that broker completes again (reached), with the count.
 * Everything else keeps kafkajs' level. Pure: no clock, no I/O.
 */
export class KafkaLogPolicy {
  /** Per broker (host:port) not reachable: the failed attempts since its first one. */
  private readonly failing = new Map<string, number>();
  /** Whether the last crash was about the connection, so the restart line that follows it is counted too. */
  private crashAboutConnection = false;

  line({ namespace, level, log }: LogEntry): KafkaLogLine {
    const { message, ...extra } = log;
    const text = (withStack: boolean) => `kafkajs ${namespace}: ${message} ${describe(extra, withStack)}`;
    const rejoining = REJOINING.get(message);
    if (rejoining) {
      return { level: rejoining, text: text(false) };
    }
    // A heartbeat or commit answered with a rebalance error, a batch handed back for one: the rejoin line says the rest.
    if (isRebalance(extra.error)) {
      return { level: 'info', text: text(false) };
    }

    const broker = typeof extra.broker === 'string' ? extra.broker : undefined;
    if (namespace === 'Connection' && broker && ATTEMPT_FAILED.test(message)) {
      const attempts = this.failing.get(broker);
      this.failing.set(broker, (attempts ?? 0) + 1);
      if (attempts !== undefined) {
        return { level: 'debug', text: text(false) };
      }
      return { level: 'warn', text: `${text(false)}; further failures are counted until ${broker} answers again` };
    }
    if (message.startsWith('Crash: ')) {
      this.crashAboutConnection = ABOUT_CONNECTION.test(message);
    } else if (this.crashAboutConnection && message.startsWith('Restarting the consumer')) {
      return { level: 'debug', text: text(false) };
    }
    if (ABOUT_CONNECTION.test(message)) {
      return { level: this.failing.size > 0 ? 'debug' : 'warn', text: text(false) };
    }

    return { level: level === logLevel.ERROR ? 'error' : level === logLevel.WARN ? 'warn' : 'debug', text: text(true) };
  }

  /** A request to `broker` completed: the line saying it answers again, when it was failing. */
  reached(broker: string): KafkaLogLine | undefined {
    const attempts = this.failing.get(broker);
    if (attempts === undefined) {
      return undefined;
    }
    this.failing.delete(broker);
    return {
      level: 'info',
      text: `kafkajs: broker ${broker} answers again after ${attempts} failed connection attempt${attempts === 1 ? '' : 's'}`,
    };
  }
}

/** Fields pino writes itself (time), or that are always the same. */
const OMITTED = new Set(['timestamp', 'logger']);

/** The details of a line as JSON, errors as their name and message, the stack only when asked for. */
function describe(extra: Record<string, unknown>, withStack: boolean): string {
  const details = Object.fromEntries(
    Object.entries(extra)
      .filter(([key]) => !OMITTED.has(key) && (withStack || key !== 'stack'))
      .map(([key, value]) => [key, value instanceof Error ? `${value.name}: ${value.message}` : value]),
  );
  return JSON.stringify(details);
}
