import { randomUUID } from 'node:crypto';
import { Rounds } from '@app/clickhouse';
import type { RejectedEventRow } from '@app/contracts';
import type { IngestStore } from './ingest-store.service';
import type { IngestRow, Refused } from './ingest-writer';
import type { IntakeKind } from './intake-kinds';

/**
 * Inserts per table start at least this far apart: about 10 a second at any request rate
 * (docs/decisions/0039-one-insert-for-many-requests.md).
 */
export const INSERT_INTERVAL_MS = 100;

/**
 * Writes rows and rejected rows in one insert per table; answers the rows the store refused (by identity). `token`
 * is the insert's deduplication token: the same rows written again with it are stored once (IngestWriter derives the
 * tokens of each table's insert and of the halves it splits into from it).
 */
type Flush<Row> = (rows: Row[], rejected: RejectedEventRow[], token: string) => Promise<Refused<Row>>;

/** A request's retry token: the same request sent again has the same one (the kind's `retryToken`). */
export interface RetryToken {
  customer: string;
  instance: string;
  token: string;
  /**
   * The ids of the request's search events: a release before retry tokens stored its rows without one, so its
   * retry after an upgrade is found by these (IntakeTokensRepository).
   */
  searchIds?: readonly string[];
}

/** Which of these tokens have their rows stored already (from an earlier insert, by any process). */
export type StoredTokens = (tokens: readonly RetryToken[]) => Promise<ReadonlySet<string>>;

interface Pending<Row> {
  events: readonly Row[];
  rejected: readonly RejectedEventRow[];
  retry?: RetryToken;
}

/**
 * A failed write is tried again after these delays, with the same rows and token, before its requests are answered
 * 503: a write that failed part-way (a data error split it, then storage failed; or rejected items stored before the
 * rows failed) is completed exactly, so no request of it is left half stored.
 */
export const RETRY_DELAYS_MS: readonly number[] = [100, 300, 900];

export interface BatcherOptions<Row = never> {
  maxRows?: number;
  /** RETRY_DELAYS_MS unless given. */
  retryDelaysMs?: readonly number[];
  /** Inserts start at least this far apart: at most 1000 / minIntervalMs a second, at any rate of additions. */
  minIntervalMs?: number;
  /** Asked once per insert for the retry tokens in it; additions whose token is stored write nothing. */
  storedTokens?: StoredTokens;
  /**
   * The token under which the table of a row records its addition's retry token (the kind's `retryTokenOf`): when
   * given, an addition whose rows go to several tables skips the rows of the tables where its token is stored, and
   * writes the others (with its rejected items only when no table has it yet). Else the retry token itself.
   */
  retryTokenOf?: (row: Row, token: string) => string;
}

/**
 * Group commit: additions arriving while an insert runs, before the interval since the last one has passed, or in
 * the same turn of the event loop share the next insert, and each addition's promise settles when its rows are
 * durably written (answering those of its rows the store refused) or the insert failed. Used by POST /events and
 * PUT /documents on the embedded transport, and for the rejected items of the Kafka transport.
 *
 * An addition with a retry token (its rows carry the token, which the store records with them) is written once:
 * when its token is stored already, or an earlier addition of the same insert has it, it writes nothing and is
 * answered like the first one.
 */
export class InsertBatcher<Row> {
  private readonly rounds: Rounds<Pending<Row>, Refused<Row>>;

  constructor(
    private readonly flush: Flush<Row>,
    private readonly options: BatcherOptions<Row> = {},
  ) {
    this.rounds = new Rounds((batch) => this.write(batch), {
      minIntervalMs: options.minIntervalMs,
      maxSize: options.maxRows ?? 200_000,
      size: (p) => p.events.length + p.rejected.length,
    });
  }

  add(events: readonly Row[], rejected: readonly RejectedEventRow[], retry?: RetryToken): Promise<Refused<Row>> {
    return this.rounds.add({ events, rejected, retry });
  }

  /** One insert of the additions of a round (up to maxRows rows, never splitting one addition); one answer each. */
  private async write(batch: readonly Pending<Row>[]): Promise<Refused<Row>[]> {
    // The first addition of each token writes; a repeat in the same batch is answered like it.
    const firstOf = new Map<string, Pending<Row>>();
    const repeats: Array<[Pending<Row>, Pending<Row>]> = [];
    for (const p of batch) {
      const first = p.retry && firstOf.get(p.retry.token);
      if (first) {
        repeats.push([p, first]);
      } else if (p.retry) {
        firstOf.set(p.retry.token, p);
      }
    }
    const parts = new Map([...firstOf.values()].map((p) => [p, this.partTokens(p)]));
    const stored =
      firstOf.size > 0 && this.options.storedTokens
        ? await this.options.storedTokens([...parts].flatMap(([p, tokens]) => tokens.map((token) => ({ ...p.retry!, token }))))
        : new Set<string>();
    const repeated = new Set(repeats.map(([repeat]) => repeat));
    const writing = batch.flatMap((p) => {
      if (repeated.has(p)) {
        return [];
      }
      const tokens = parts.get(p);
      const done = tokens?.filter((t) => stored.has(t)) ?? [];
      if (done.length === 0) {
        return [p];
      }
      if (done.length === tokens!.length) {
        return [];
      }
      // Part of it is stored (a write that failed between tables): the rest, once; its rejected items are stored.
      const { token } = p.retry!;
      return [{ ...p, events: p.events.filter((row) => !stored.has(this.options.retryTokenOf!(row, token))), rejected: [] }];
    });
    const refused = writing.length > 0 ? await this.flushWithRetries(writing) : new Map<Row, string>();
    const answers = new Map<Pending<Row>, Refused<Row>>();
    for (const p of batch) {
      answers.set(p, refusedOf(p.events, refused));
    }
    for (const [repeat, first] of repeats) {
      // The same items in the same order: a row the store refused for the first is refused for the repeat too.
      answers.set(repeat, sameRefused(first.events, answers.get(first)!, repeat.events));
    }
    return batch.map((p) => answers.get(p)!);
  }

  /** The tokens under which the tables of an addition's rows record its retry token. */
  private partTokens(p: Pending<Row>): string[] {
    const { token } = p.retry!;
    const of = this.options.retryTokenOf;
    if (!of || p.events.length === 0) {
      return [token];
    }
    const tokens = new Set<string>();
    for (const row of p.events) {
      tokens.add(of(row, token));
    }
    return [...tokens];
  }

  private async flushWithRetries(writing: readonly Pending<Row>[]): Promise<Refused<Row>> {
    const rows = writing.flatMap((p) => p.events);
    const rejected = writing.flatMap((p) => p.rejected);
    const token = `intake:${randomUUID()}`;
    for (const delay of this.options.retryDelaysMs ?? RETRY_DELAYS_MS) {
      try {
        return await this.flush(rows, rejected, token);
      } catch {
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    return this.flush(rows, rejected, token);
  }
}

/** The rows of one addition the store refused. */
function refusedOf<Row>(rows: readonly Row[], refused: Refused<Row>): Refused<Row> {
  return refused.size === 0 ? refused : new Map(rows.filter((row) => refused.has(row)).map((row) => [row, refused.get(row)!]));
}

/** `refused` (of `rows`) for the rows at the same places in `others`. */
function sameRefused<Row>(rows: readonly Row[], refused: Refused<Row>, others: readonly Row[]): Refused<Row> {
  if (refused.size === 0) {
    return refused;
  }
  return new Map(rows.flatMap((row, i) => (refused.has(row) && others[i] ? [[others[i], refused.get(row)!] as const] : [])));
}

/**
 * One InsertBatcher per intake kind (keyed by its own table), made on first use, writing through the store: one
 * flush writes all the tables of the kind's rows (search events and interactions alike), retried whole.
 */
export class InsertBatchers {
  private readonly byTable = new Map<string, InsertBatcher<IngestRow>>();

  constructor(
    private readonly store: IngestStore,
    private readonly options: BatcherOptions,
  ) {}

  /** `group`: additions of different groups never share an insert (cluster mode: one customer's instance each). */
  of<Row extends IngestRow>(kind: IntakeKind<Row>, group?: string): InsertBatcher<Row> {
    const key = group === undefined ? kind.table : `${kind.table}\0${group}`;
    let batcher = this.byTable.get(key);
    if (!batcher) {
      const retryTokenOf = kind.retryTokenOf && ((row: IngestRow, token: string) => kind.retryTokenOf!(row as Row, token));
      batcher = new InsertBatcher<IngestRow>((rows, rejected, token) => this.store.store(kind, rows, rejected, token), {
        ...this.options,
        retryTokenOf,
      });
      this.byTable.set(key, batcher);
    }
    return batcher as unknown as InsertBatcher<Row>;
  }
}
