import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';
import type { EntityView } from './entity.view';

/** One entity and its ETag (the version of its latest saved state). */
export interface EntityWithEtag {
  entity: EntityView;
  etag: string;
}

export class GetEntityQuery extends Query<EntityWithEtag> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly id: string,
  ) {
    super();
  }
}
