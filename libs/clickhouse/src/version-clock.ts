import { Injectable, Optional } from '@nestjs/common';
import { ClickHouseService } from './clickhouse.service';
import { ClickHouseCluster } from './cluster/clickhouse-cluster.service';

/**
 * Versions of append-only rows (keys, customers, configuration, entities, notifications): the state of a key is
 * its highest version, so the versions of all processes must come from one clock, or a command made by a process
 * whose clock is behind loses to the older state. This is the store's clock (nanoseconds of `now64(9)`), read
 * with every command, and strictly increasing within the process (a counter breaks ties and steps back). In
 * cluster mode it is the designated host's clock, whichever host the URL reaches. Returned as decimal strings because
 * UInt64 does not fit a JavaScript number.
 */
@Injectable()
export class VersionClock {
  private last = 0n;

  constructor(
    private readonly ch: ClickHouseService,
    @Optional() private readonly cluster?: ClickHouseCluster,
  ) {}

  /** `count` strictly increasing versions, all later than any this process handed out before. */
  async next(count = 1): Promise<string[]> {
    if (count < 1) {
      return [];
    }
    const clock = this.cluster ? await this.cluster.designated() : this.ch;
    const [{ now }] = await clock.query<{ now: string }>(`SELECT toString(toUnixTimestamp64Nano(now64(9))) AS now`);
    let first = BigInt(now);
    if (first <= this.last) {
      first = this.last + 1n;
    }
    this.last = first + BigInt(count - 1);
    return Array.from({ length: count }, (_, i) => (first + BigInt(i)).toString());
  }
}

/**
 * The process clock in nanoseconds plus a counter: only for versions that do not decide between commands of
 * several processes (documents received over HTTP take it; from Kafka their versions come from offsets).
 */
let last = 0n;
const origin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

export function nextVersion(): string {
  let now = origin + process.hrtime.bigint();
  if (now <= last) {
    now = last + 1n;
  }
  last = now;
  return now.toString();
}
