import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf } from '../analytics/analytics-scope';
import { AnswerCache } from '../analytics/answer-cache';
import { resolveWindow } from '../analytics/window';
import { TermDetailRepository, termNotFound } from './term-detail.repository';
import { compact, damerauLevenshtein } from './distance';
import type { SuggestionView, SuggestionsView } from './suggestions.dto';
import { SuggestionsQuery } from './suggestions.query';
import { MAX_DISTANCE, SuggestionsRepository } from './suggestions.repository';

/** How many suggestions an answer has at most. */
const MAX_SUGGESTIONS = 5;

/** GET /search-terms/{id}/suggestions; cached (AnswerCache) like the term's detail. */
@QueryHandler(SuggestionsQuery)
export class SuggestionsHandler implements IQueryHandler<SuggestionsQuery> {
  constructor(
    private readonly terms: TermDetailRepository,
    private readonly repository: SuggestionsRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  execute({ id, criteria: c }: SuggestionsQuery): Promise<SuggestionsView> {
    const now = Date.now();
    const scope = { ...filterOf(c), window: resolveWindow(c.window, now, this.config.retentionDays) };
    return this.cache.get(scope, ['suggestions', id, scope], async () => {
      const phrase = await this.terms.phraseOf(scope, id);
      if (phrase === undefined) {
        throw termNotFound(id);
      }
      const suggestions: SuggestionView[] = [];
      for (const candidate of await this.repository.candidates(scope, phrase, now)) {
        const distance = compact(candidate.phrase) === compact(phrase) ? 0 : damerauLevenshtein(candidate.phrase, phrase, MAX_DISTANCE);
        if (distance !== undefined) {
          suggestions.push({ search_phrase: candidate.phrase, count: candidate.count, distance });
        }
      }
      suggestions.sort(
        (a, b) =>
          b.count - a.count || a.distance - b.distance || Buffer.compare(Buffer.from(a.search_phrase), Buffer.from(b.search_phrase)),
      );
      return { suggestions: suggestions.slice(0, MAX_SUGGESTIONS) };
    });
  }
}
