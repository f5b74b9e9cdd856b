import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';
import type { EntityView } from './entity.view';

export class ListEntitiesQuery extends Query<{ items: EntityView[]; total: number }> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly start: number,
    readonly end: number,
  ) {
    super();
  }
}
