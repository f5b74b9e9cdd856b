import { Injectable } from '@nestjs/common';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import type { AnalyticsScope } from '../analytics/analytics-scope';
import { termRowsSql } from '../analytics/analytics-sql';
import { compact } from './distance';

/** The largest distance of a suggestion. */
export const MAX_DISTANCE = 2;

/**
 * The candidates of GET /search-terms/{id}/suggestions, from the phrase rollups: phrases of the window that found
 * results, other than the term, within MAX_DISTANCE edits of it as far as the engine can tell, or equal to it once
 * spaces and hyphens are removed. The engine's editDistanceUTF8 counts code points but no transposition, which
 * costs it two edits: so it keeps phrases within twice MAX_DISTANCE, and the exact distance is computed in the
 * process on those few (distance.ts). The length check comes first so that most phrases cost no edit distance.
 */
@Injectable()
export class SuggestionsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  async candidates(scope: AnalyticsScope, phrase: string, now: number): Promise<Array<{ phrase: string; count: number }>> {
    const params: QueryParams = { term: phrase, term_length: Array.from(phrase).length, term_compact: compact(phrase) };
    const near = `phrase != {term:String} AND (
        (abs(toInt64(lengthUTF8(phrase)) - {term_length:Int64}) <= ${MAX_DISTANCE}
          AND editDistanceUTF8(phrase, {term:String}) <= ${2 * MAX_DISTANCE})
        OR replaceRegexpAll(phrase, '[ -]', '') = {term_compact:String})`;
    const rows = termRowsSql(this.ch, scope, scope.window, 1, params, { zeroHits: false, now, phrases: near });
    const found = await this.ch.query<{ phrase: string; n: string | number }>(
      `SELECT phrase, sum(signed) AS n FROM (${rows}) GROUP BY phrase HAVING n > 0`,
      params,
    );
    return found.map((r) => ({ phrase: r.phrase, count: Number(r.n) }));
  }
}
