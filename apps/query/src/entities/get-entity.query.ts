import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityView } from './entity.view';
import type { EntityType } from './entity-types';

export class GetEntityQuery extends Query<EntityView> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly id: string,
  ) {
    super();
  }
}
