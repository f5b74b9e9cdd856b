import { Logger } from '@nestjs/common';
import type { ErrorLogParams, Logger as ClientLogger, LogParams, WarnLogParams } from '@clickhouse/client';

/**
 * What the client logs about an error it also throws to the caller (a failed request, a failed result stream). The
 * caller decides what that error means and logs it (an insert retried, a migration lock another process holds, a
 * 503), so the client's own report of it is a detail: debug.
 */
const THROWN_TO_CALLER = /: HTTP request error\.$|^Error while processing the ResultSet\.$/;

/**
 * @clickhouse/client's logger (createClient's `log.LoggerClass`): its lines go through the process's logger (JSON
 * lines through pino in the apps), not as the client's multi-line console dumps. Each is one line: the module, the
 * message, the arguments as JSON and the error's text.
 */
export class ClickHouseClientLogger implements ClientLogger {
  private readonly logger = new Logger('ClickHouseClient');

  trace(params: LogParams): void {
    this.logger.verbose(oneLine(params));
  }

  debug(params: LogParams): void {
    this.logger.debug(oneLine(params));
  }

  info(params: LogParams): void {
    this.logger.log(oneLine(params));
  }

  warn(params: WarnLogParams): void {
    this.logger.warn(oneLine(params));
  }

  error(params: ErrorLogParams): void {
    if (THROWN_TO_CALLER.test(params.message)) {
      this.logger.debug(oneLine(params));
    } else {
      this.logger.error(oneLine(params));
    }
  }
}

function oneLine({ module, message, args, err }: WarnLogParams): string {
  const parts = [`${module}: ${message}`];
  if (args) {
    parts.push(json(args));
  }
  if (err) {
    parts.push(`${err.name}: ${err.message}`);
  }
  return parts.join(' ').replace(/\s*\n\s*/g, ' ');
}

/** A logger must not throw into the client's request path (a BigInt or a cycle in the arguments). */
function json(args: Record<string, unknown>): string {
  try {
    return JSON.stringify(args, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
  } catch {
    return '[arguments not serialisable]';
  }
}
