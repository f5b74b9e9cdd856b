import type { AuthContext } from '@app/auth';
import { normalisePhrase } from '@app/contracts';
import { DomainError } from '@app/errors';
import type { AnalyticsFiltersDto } from './analytics.dto';
import type { AnalyticsWindow, WindowParams } from './window';

/** Whose searches an analytics request counts, and which (the filters of GET /search-terms; docs/architecture.md, "Counting rules"). */
export interface AnalyticsFilter {
  customer: string;
  instance: string;
  /** Lower case; all languages when absent. */
  language?: string;
  includeBots: boolean;
}

/** The filter and the window parameters as sent; the handler resolves the window (window.ts) at its own "now". */
export interface AnalyticsCriteria extends AnalyticsFilter {
  window: WindowParams;
}

/** A filter with its resolved window: what the repositories count. */
export interface AnalyticsScope extends AnalyticsFilter {
  window: AnalyticsWindow;
}

/** Just the filter of criteria that carry more (the window parameters, a list's options). */
export function filterOf({ customer, instance, language, includeBots }: AnalyticsFilter): AnalyticsFilter {
  return { customer, instance, language, includeBots };
}

export function analyticsCriteria(auth: AuthContext, q: AnalyticsFiltersDto): AnalyticsCriteria {
  return {
    customer: auth.customer,
    instance: auth.instance,
    language: q.language?.toLowerCase(),
    includeBots: q.includeBotTraffic === 'true',
    window: { since: q.since, from: q.from, to: q.to, tz: q.tz },
  };
}

/** A `phrase` parameter normalised as the lists' phrases (undefined when absent), or a 400 when nothing is left. */
export function phraseParam(value: string | undefined): string | undefined {
  const phrase = value === undefined ? undefined : normalisePhrase(value);
  if (phrase === '') {
    throw new DomainError('invalid', 'phrase is empty');
  }
  return phrase;
}
