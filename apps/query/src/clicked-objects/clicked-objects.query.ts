import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { normalisePhrase } from '@app/contracts';
import { DomainError } from '@app/errors';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import type { ClickedObjectsDto, ClickedObjectView } from './clicked-objects.dto';

export interface ClickedObjectsCriteria extends AnalyticsCriteria {
  /** Only this normalised phrase's searches. */
  phrase?: string;
  start: number;
  /** Exclusive; absent for every object up to MAX_EXPORT_ROWS (CSV without _start/_end). */
  end?: number;
}

/** The criteria of a GET /clicked-objects request (a 400 for an empty phrase). */
export function clickedObjectsCriteria(auth: AuthContext, q: ClickedObjectsDto, csv: boolean, rawQuery: object): ClickedObjectsCriteria {
  const phrase = q.phrase === undefined ? undefined : normalisePhrase(q.phrase);
  if (phrase === '') {
    throw new DomainError('invalid', 'phrase is empty');
  }
  const paged = !csv || '_start' in rawQuery || '_end' in rawQuery;
  return { ...analyticsCriteria(auth, q), phrase, start: q._start, end: paged ? q._end : undefined };
}

/** One page of the clicked objects. */
export class ClickedObjectsQuery extends Query<{ items: ClickedObjectView[]; total: number }> {
  constructor(readonly criteria: ClickedObjectsCriteria) {
    super();
  }
}
