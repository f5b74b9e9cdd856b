import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf } from '../analytics/analytics-scope';
import { AnalyticsSlots } from '../analytics/analytics-slots';
import { amountFields } from '../analytics/engagement';
import { resolveWindow } from '../analytics/window';
import { MAX_EXPORT_ROWS } from '../common/csv';
import type { ClickedObjectView } from './clicked-objects.dto';
import { ClickedObjectsRepository } from './clicked-objects.repository';
import { ClickedObjectsQuery } from './clicked-objects.query';

/** GET /clicked-objects: the objects clicked after the window's searches, a page of them (docs/architecture.md). */
@QueryHandler(ClickedObjectsQuery)
export class ClickedObjectsHandler implements IQueryHandler<ClickedObjectsQuery> {
  constructor(
    private readonly repository: ClickedObjectsRepository,
    private readonly slots: AnalyticsSlots,
    private readonly config: AppConfig,
  ) {}

  async execute({ criteria: c }: ClickedObjectsQuery): Promise<{ items: ClickedObjectView[]; total: number }> {
    const window = resolveWindow(c.window, Date.now(), this.config.retentionDays);
    const limit = c.end === undefined ? MAX_EXPORT_ROWS : c.end - c.start;
    // In one of the customer's analytics slots, as every analytics answer (docs/security.md).
    const { rows, total } = await this.slots.run(c.customer, () =>
      this.repository.clickedObjects(filterOf(c), window, c.phrase, c.start, limit),
    );
    return {
      total,
      items: rows.map(({ purchaseRevenue, ...row }) => ({ ...row, purchase_revenue: amountFields(purchaseRevenue) })),
    };
  }
}
