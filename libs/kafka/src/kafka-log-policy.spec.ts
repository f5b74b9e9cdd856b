import { logLevel, type LogEntry } from 'kafkajs';
import { KafkaLogPolicy, type KafkaLogLine } from './kafka-log-policy';
import { REBALANCE_ERRORS } from './rebalance';

const BROKER = '10.0.0.1:9092';

function entry(level: logLevel, namespace: string, message: string, extra: Record<string, unknown> = {}): LogEntry {
  return { namespace, level, label: logLevel[level], log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra } };
}

// What kafkajs 2.2.4 logs (node_modules/kafkajs/src): a refused connection, and BrokerPool's line about the same attempt.
const refused = (broker = BROKER) =>
  entry(logLevel.ERROR, 'Connection', `Connection error: connect ECONNREFUSED ${broker}`, {
    broker,
    clientId: 'search-analytics',
    stack: `Error: connect ECONNREFUSED ${broker}\n    at TCPConnectWrap.afterConnect`,
  });
const seedFailed = () =>
  entry(
    logLevel.ERROR,
    'BrokerPool',
    `Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED ${BROKER}`,
    {
      retryCount: 3,
      retryTime: 1318,
    },
  );
const crashed = () =>
  entry(logLevel.ERROR, 'Consumer', `Crash: KafkaJSNumberOfRetriesExceeded: Connection error: connect ECONNREFUSED ${BROKER}`, {
    groupId: 'g',
    retryCount: 8,
    stack: 'KafkaJSNumberOfRetriesExceeded\n  Caused by: ...',
  });
const restarting = () =>
  entry(logLevel.ERROR, 'Consumer', 'Restarting the consumer in 5000ms', { retryCount: 8, retryTime: 5000, groupId: 'g' });

function expectLine(line: KafkaLogLine | undefined, level: KafkaLogLine['level'], containing: string): void {
  expect(line?.level).toBe(level);
  expect(line?.text).toContain(containing);
}

describe('KafkaLogPolicy', () => {
  describe('rebalances are routine: info', () => {
    it("logs kafkajs' rejoin after a rebalance at info, whatever error led to it (a batch handed back included)", () => {
      const policy = new KafkaLogPolicy();
      for (const error of ['The group is rebalancing, so a rejoin is needed', 'batch abandoned: the group is rebalancing']) {
        expectLine(
          policy.line(entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining', { groupId: 'g', memberId: 'm', error })),
          'info',
          'The group is rebalancing, re-joining',
        );
      }
    });

    it('logs a heartbeat or a commit answered with a rebalance error at info', () => {
      const policy = new KafkaLogPolicy();
      for (const [api, error] of [
        ['Heartbeat(key: 12, version: 3)', 'The group is rebalancing, so a rejoin is needed'],
        ['OffsetCommit(key: 8, version: 5)', 'Specified group generation id is not valid'],
        ['Heartbeat(key: 12, version: 3)', 'The coordinator is not aware of this member'],
        ['SyncGroup(key: 14, version: 3)', 'This is not the correct coordinator for this group'],
      ]) {
        expectLine(
          policy.line(entry(logLevel.ERROR, 'Connection', `Response ${api}`, { broker: BROKER, error, correlationId: 7 })),
          'info',
          api,
        );
      }
    });

    it('logs a batch handed back for a rebalance (an error carrying a rebalance type) at info, without its stack', () => {
      const abandoned = Object.assign(new Error('batch abandoned: the group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
      const line = new KafkaLogPolicy().line(
        entry(logLevel.ERROR, 'Runner', 'Error when calling eachBatch', {
          topic: 't',
          partition: 2,
          offset: '40',
          stack: abandoned.stack,
          error: abandoned,
        }),
      );
      expect(line.level).toBe('info');
      expect(line.text).toContain('Error when calling eachBatch');
      expect(line.text).toContain('batch abandoned: the group is rebalancing');
      expect(line.text).not.toContain('\n');
      expect(line.text).not.toContain('stack');
    });

    it('warns once (the rejoin, not the response) about a member the coordinator dropped, not at error', () => {
      const line = new KafkaLogPolicy().line(
        entry(logLevel.ERROR, 'Runner', 'The coordinator is not aware of this member, re-joining the group', {
          groupId: 'g',
          error: 'The coordinator is not aware of this member',
        }),
      );
      expect(line.level).toBe('warn');
    });

    it('knows the messages the installed kafkajs gives the rebalance errors (its logs carry the message, not the type)', () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' own table, so an upgrade that rewords one fails here
      const { errorCodes } = require('kafkajs/src/protocol/error') as { errorCodes: Array<{ type: string; message: string }> };
      for (const [type, message] of Object.entries(REBALANCE_ERRORS)) {
        expect(errorCodes.find((e) => e.type === type)?.message).toBe(message);
      }
    });

    it('keeps other errors at their level, with their details', () => {
      const policy = new KafkaLogPolicy();
      const failure = Object.assign(new Error('unexpected'), { type: 'SOMETHING_ELSE' });
      const batch = policy.line(entry(logLevel.ERROR, 'Runner', 'Error when calling eachBatch', { stack: failure.stack, error: failure }));
      expectLine(batch, 'error', 'unexpected');
      expect(batch.text).toContain('stack');
      expect(
        policy.line(entry(logLevel.ERROR, 'Connection', 'Response Fetch(key: 1, version: 11)', { error: 'Not authorized' })).level,
      ).toBe('error');
      expect(policy.line(entry(logLevel.WARN, 'ConsumerGroup', 'Consumer group received unsubscribed topics')).level).toBe('warn');
    });
  });

  describe('connection failures: once per state change, with a count', () => {
    it('warns at the first failure, counts the following ones at debug, and says at info when the broker answers again', () => {
      const policy = new KafkaLogPolicy();
      const first = policy.line(refused());
      expect(first.level).toBe('warn');
      expect(first.text).toContain(`ECONNREFUSED ${BROKER}`);
      expect(first.text).not.toContain('\n');
      const later = [seedFailed(), refused(), seedFailed(), refused(), crashed(), restarting(), refused()].map((e) => policy.line(e));
      expect(later.map((l) => l.level)).toEqual(Array(7).fill('debug'));
      expectLine(policy.reached(BROKER), 'info', 'after 4 failed connection attempts');
      // Recovered: the next request is routine, and the next failure starts a new outage.
      expect(policy.reached(BROKER)).toBeUndefined();
      expect(policy.line(refused()).level).toBe('warn');
    });

    it('keeps the state per broker: another broker answering ends nothing', () => {
      const policy = new KafkaLogPolicy();
      const other = '10.0.0.2:9092';
      expect(policy.line(refused()).level).toBe('warn');
      expect(policy.line(refused(other)).level).toBe('warn');
      expect(policy.reached(other)?.text).toContain('after 1 failed connection attempt');
      expect(policy.line(refused()).level).toBe('debug');
      expect(policy.reached(BROKER)?.text).toContain('after 2 failed connection attempts');
    });

    it('treats a connection timeout as a failed attempt', () => {
      const policy = new KafkaLogPolicy();
      expect(policy.line(entry(logLevel.ERROR, 'Connection', 'Connection timeout', { broker: BROKER })).level).toBe('warn');
      expect(policy.line(entry(logLevel.ERROR, 'Connection', 'Connection timeout', { broker: BROKER })).level).toBe('debug');
    });

    it('keeps a crash and its restart at error when no broker is failing (they are not about a connection)', () => {
      const policy = new KafkaLogPolicy();
      expect(policy.line(entry(logLevel.ERROR, 'Consumer', 'Crash: KafkaJSProtocolError: Not authorized', { groupId: 'g' })).level).toBe(
        'error',
      );
      expect(policy.line(restarting()).level).toBe('error');
    });

    it('warns once about a crash caused by the connection, and counts the restart that follows it', () => {
      const policy = new KafkaLogPolicy();
      expect(policy.line(crashed()).level).toBe('warn');
      expect(policy.line(restarting()).level).toBe('debug');
    });
  });
});
