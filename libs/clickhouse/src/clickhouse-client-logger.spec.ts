import { Logger } from '@nestjs/common';
import { createClient } from '@clickhouse/client';
import { createServer } from 'node:net';
import { ClickHouseClientLogger } from './clickhouse-client-logger';

/** A local port nothing listens on (connections are refused). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('ClickHouseClientLogger (@clickhouse/client logging through the service logger)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes an error as one line with its module, message, arguments and the error text, at error', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const err = new Error('socket hang up\n    at Socket.socketOnEnd');
    new ClickHouseClientLogger().error({
      module: 'Connection',
      message: 'Query: an error occurred while housekeeping the idle sockets',
      args: { operation: 'Query', query_id: 'q-1' },
      err,
    });
    expect(error.mock.calls).toEqual([
      [
        'Connection: Query: an error occurred while housekeeping the idle sockets {"operation":"Query","query_id":"q-1"} ' +
          'Error: socket hang up at Socket.socketOnEnd',
      ],
    ]);
  });

  it('writes the error of a failed request, which the caller also gets and handles, at debug (not error)', async () => {
    const lines: Array<[string, string]> = [];
    for (const method of ['debug', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, method).mockImplementation((...args: unknown[]) => void lines.push([method, String(args[0])]));
    }
    const client = createClient({ url: `http://127.0.0.1:${await closedPort()}`, log: { LoggerClass: ClickHouseClientLogger } });
    await expect(client.query({ query: 'SELECT 1' })).rejects.toThrow(/ECONNREFUSED/);
    await client.close();
    expect(lines).toEqual([
      ['debug', expect.stringMatching(/^Connection: Query: HTTP request error\. \{.*\} Error: connect ECONNREFUSED/)],
    ]);
  });

  it('keeps the level of every other line', () => {
    const calls: string[] = [];
    for (const method of ['verbose', 'debug', 'log', 'warn'] as const) {
      jest.spyOn(Logger.prototype, method).mockImplementation(() => void calls.push(method));
    }
    const logger = new ClickHouseClientLogger();
    logger.trace({ module: 'Connection', message: 'socket' });
    logger.debug({ module: 'Connection', message: 'response' });
    logger.info({ module: 'Connection', message: 'log level' });
    logger.warn({ module: 'Config', message: 'timeout' });
    expect(calls).toEqual(['verbose', 'debug', 'log', 'warn']);
  });
});
