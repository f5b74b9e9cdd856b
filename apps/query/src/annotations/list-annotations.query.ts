import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { WindowParams } from '../analytics/window';
import type { AnnotationView } from './annotation.view';

/** The annotations in the window the parameters name, oldest first, one page of them. */
export class ListAnnotationsQuery extends Query<{ items: AnnotationView[]; total: number }> {
  constructor(
    readonly auth: AuthContext,
    readonly window: WindowParams,
    readonly start: number,
    readonly end: number,
  ) {
    super();
  }
}
