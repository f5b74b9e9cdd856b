import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, phraseParam, type AnalyticsCriteria } from '../analytics/analytics-scope';
import { pageEnd } from '../common/csv';
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
  return { ...analyticsCriteria(auth, q), phrase: phraseParam(q.phrase), start: q._start, end: pageEnd(q, csv, rawQuery) };
}

/** One page of the clicked objects. */
export class ClickedObjectsQuery extends Query<{ items: ClickedObjectView[]; total: number }> {
  constructor(readonly criteria: ClickedObjectsCriteria) {
    super();
  }
}
