import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityView } from './entity.view';
import type { EntityType } from './entity-types';

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
