import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import { handlersSql } from '../analytics/analytics-sql';

const seconds = (ms: number) => Math.floor(ms / 1000);

export interface UnhandledTerm {
  phrase: string;
  languages: string[];
  zeroResultSearches: number;
}

export interface HourRate {
  hour: number;
  searches: number;
  zeroHits: number;
}

type LogState = 'claim' | 'released' | 'evaluated' | 'raised' | 'resolved';

/**
 * A claim whose evaluation has not finished this long after the store stamped it belongs to a process that died (an
 * evaluation reads a few rollup rows and takes well under a second): the next claimant releases it on its behalf.
 */
export const CLAIM_EXPIRY_S = 120;

/** The SQL of the alert rules and of `alert_log` (claims on hours, open term alerts). Bot searches never count. */
@Injectable()
export class AlertsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /**
   * Claims the evaluation of `key` for this process, so exactly one process evaluates an hour, also after restarts.
   * Each round of claims on a key (a round ends when its winner releases its claim) inserts under one deduplication
   * token: the store keeps the first insert and drops the others as duplicates, atomically, so a round holds one
   * claim. Ordering claims by their time instead is not enough: the store stamps a claim when its insert begins and
   * shows it when the insert ends, so a claim stamped first can appear after another process saw itself first.
   * A claim that holds the key but has not recorded its evaluation within CLAIM_EXPIRY_S (its process was killed) is
   * released here on its behalf, once whoever does it (the release's own token), which begins the next round.
   */
  async claim(customer: string, instance: string, key: string): Promise<string | undefined> {
    const params = { customer, instance, key, expiry: CLAIM_EXPIRY_S };
    const where = `customer = {customer:String} AND instance = {instance:String} AND key = {key:String}`;
    const holder = () =>
      this.ch.query<{ claim: string; expired: number; evaluated: number }>(
        `SELECT claim, at < now64(6) - INTERVAL {expiry:UInt32} SECOND AS expired,
           claim IN (SELECT claim FROM ${this.ch.table('alert_log')} WHERE ${where} AND state = 'evaluated') AS evaluated
         FROM ${this.ch.table('alert_log')}
         WHERE ${where} AND state = 'claim'
           AND claim NOT IN (SELECT claim FROM ${this.ch.table('alert_log')} WHERE ${where} AND state = 'released')
         ORDER BY at, claim LIMIT 1`,
        params,
      );
    const [held] = await holder();
    if (held && (held.evaluated || !held.expired)) {
      return undefined;
    }
    if (held) {
      const expired = [{ key, state: 'released' as const, languages: [], claim: held.claim }];
      await this.append(customer, instance, expired, releaseToken(customer, instance, key, held.claim));
    }
    const [{ released }] = await this.ch.query<{ released: string }>(
      `SELECT toString(uniqExact(claim)) AS released FROM ${this.ch.table('alert_log')} WHERE ${where} AND state = 'released'`,
      params,
    );
    const claim = randomUUID();
    const round = `claim/${customer}/${instance}/${key}/${released}`;
    await this.append(customer, instance, [{ key, state: 'claim', languages: [], claim }], round);
    // The oldest claim not released wins: the round's, or one of a round whose token left the deduplication window.
    const [first] = await holder();
    return first?.claim === claim ? claim : undefined;
  }

  /** Records that a claim's evaluation is done (its alerts are recorded): from then on the claim never expires. */
  async evaluated(customer: string, instance: string, key: string, claim: string): Promise<void> {
    await this.append(customer, instance, [{ key, state: 'evaluated', languages: [], claim }]);
  }

  /** Gives up a claim whose evaluation failed, ending its round: the next claim on the key (any process's) wins. */
  async release(customer: string, instance: string, key: string, claim: string): Promise<void> {
    await this.append(customer, instance, [{ key, state: 'released', languages: [], claim }], releaseToken(customer, instance, key, claim));
  }

  /** The terms with an open alert (latest row `raised`) and the languages it was raised for. */
  async openTerms(customer: string, instance: string): Promise<Map<string, string[]>> {
    const rows = await this.ch.query<{ phrase: string; languages: string[] }>(
      `SELECT substring(key, 6) AS phrase, languages FROM (
         SELECT key, state, languages FROM ${this.ch.table('alert_log')}
         WHERE customer = {customer:String} AND instance = {instance:String} AND startsWith(key, 'term:') AND state != 'claim'
         ORDER BY key, at DESC, claim DESC LIMIT 1 BY key
       ) WHERE state = 'raised'`,
      { customer, instance },
    );
    return new Map(rows.map((r) => [r.phrase, r.languages]));
  }

  async recordTerms(customer: string, instance: string, state: 'raised' | 'resolved', terms: ReadonlyMap<string, string[]>): Promise<void> {
    const rows = [...terms].map(([phrase, languages]) => ({ key: `term:${phrase}`, state, languages, claim: '' }));
    if (rows.length > 0) {
      await this.append(customer, instance, rows);
    }
  }

  /**
   * Terms with at least `min` zero-result searches in [from, to) in the languages no entity handles, with those
   * languages (sorted) and that count; the rule of docs/alerts.md.
   */
  async unhandledTerms(customer: string, instance: string, from: number, to: number, min: number): Promise<UnhandledTerm[]> {
    const params: QueryParams = { from: seconds(from), to: seconds(to), min };
    const handlers = handlersSql(this.ch, { customer, instance, includeBots: false }, params);
    const rows = await this.ch.query<{ phrase: string; languages: string[]; total: string | number }>(
      `SELECT z.phrase AS phrase, arraySort(groupArray(z.language)) AS languages, sum(z.n) AS total
       FROM (
         ${this.zeroResultSql('')}
       ) AS z LEFT JOIN (${handlers}) AS h ON z.phrase = h.phrase
       WHERE NOT has(h.covered, '') AND NOT has(h.covered, z.language)
       GROUP BY z.phrase HAVING total >= {min:UInt64}
       ORDER BY total DESC, phrase`,
      params,
    );
    return rows.map((r) => ({ phrase: r.phrase, languages: r.languages, zeroResultSearches: Number(r.total) }));
  }

  /** The languages each phrase's entities handle ('' for all languages). */
  async coverage(customer: string, instance: string, phrases: readonly string[]): Promise<Map<string, string[]>> {
    if (phrases.length === 0) {
      return new Map();
    }
    const params: QueryParams = { phrases };
    const handlers = handlersSql(this.ch, { customer, instance, includeBots: false }, params);
    const rows = await this.ch.query<{ phrase: string; covered: string[] }>(
      `SELECT phrase, covered FROM (${handlers}) WHERE phrase IN {phrases:Array(String)}`,
      params,
    );
    return new Map(rows.map((r) => [r.phrase, r.covered]));
  }

  /** The languages in which each of `phrases` found nothing in [from, to) (bots left out). */
  async zeroResultLanguages(
    customer: string,
    instance: string,
    phrases: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, string[]>> {
    if (phrases.length === 0) {
      return new Map();
    }
    const rows = await this.ch.query<{ phrase: string; languages: string[] }>(
      `SELECT phrase, groupArray(language) AS languages FROM (
         ${this.zeroResultSql('AND phrase IN {phrases:Array(String)}')}
       ) GROUP BY phrase`,
      { customer, instance, phrases, from: seconds(from), to: seconds(to) },
    );
    return new Map(rows.map((r) => [r.phrase, r.languages]));
  }

  /** Searches and zero-result searches of each of `hours` (their starts) that has any. */
  async hourRates(customer: string, instance: string, hours: readonly number[]): Promise<HourRate[]> {
    const rows = await this.ch.query<{ at: string | number; total: string | number; zero: string | number }>(
      `SELECT toUnixTimestamp(hour) AS at, sum(searches) AS total, sumIf(searches, zero_hits) AS zero
       FROM ${this.ch.table('search_totals_hourly')}
       WHERE customer = {customer:String} AND instance = {instance:String} AND bot = 0
         AND hour IN (SELECT toDateTime(arrayJoin({hours:Array(UInt32)}), 'UTC'))
       GROUP BY hour`,
      { customer, instance, hours: hours.map(seconds) },
    );
    return rows.map((r) => ({ hour: Number(r.at) * 1000, searches: Number(r.total), zeroHits: Number(r.zero) }));
  }

  /**
   * Zero-result searches (`n`) per phrase and language in [{from}, {to}) (seconds), bots left out, under `filter`
   * (more conditions, or ''): the rows both term rules read.
   */
  private zeroResultSql(filter: string): string {
    return `SELECT phrase, language, sum(searches) AS n FROM ${this.ch.table('search_terms_hourly')}
      WHERE customer = {customer:String} AND instance = {instance:String} AND zero_hits = 1 AND bot = 0
        AND hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC') ${filter}
      GROUP BY phrase, language HAVING n > 0`;
  }

  private async append(
    customer: string,
    instance: string,
    rows: readonly { key: string; state: LogState; languages: string[]; claim: string }[],
    dedupToken?: string,
  ): Promise<void> {
    await this.ch.insert(
      'alert_log',
      rows.map((r) => ({ customer, instance, ...r })),
      dedupToken,
    );
  }
}

/**
 * A claim's release is stored once, whoever releases it (its process after a failure, or another after it expired),
 * and rounds are counted by the claims released, so every process numbers the rounds alike.
 */
function releaseToken(customer: string, instance: string, key: string, claim: string): string {
  return `released/${customer}/${instance}/${key}/${claim}`;
}
