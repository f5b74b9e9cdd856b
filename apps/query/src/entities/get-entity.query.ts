import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';
import type { EntityView } from './entity.view';

export class GetEntityQuery extends Query<EntityView> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly id: string,
  ) {
    super();
  }
}
