import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { resolveWindow } from '../analytics/window';
import { AnnotationsRepository } from './annotations.repository';
import type { AnnotationView } from './annotation.view';
import { ListAnnotationsQuery } from './list-annotations.query';

/** The window is resolved as for the analytics endpoints (the same rules and 400s), so a chart's annotations match it. */
@QueryHandler(ListAnnotationsQuery)
export class ListAnnotationsHandler implements IQueryHandler<ListAnnotationsQuery> {
  constructor(
    private readonly annotations: AnnotationsRepository,
    private readonly config: AppConfig,
  ) {}

  execute({ auth, window, start, end }: ListAnnotationsQuery): Promise<{ items: AnnotationView[]; total: number }> {
    const range = resolveWindow(window, Date.now(), this.config.retentionDays);
    return this.annotations.list(auth.customer, auth.instance, range, start, end);
  }
}
