import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { EntitiesRepository } from './entities.repository';
import { GetEntityQuery, type EntityWithEtag } from './get-entity.query';
import { etagOf } from './preconditions';

@QueryHandler(GetEntityQuery)
export class GetEntityHandler implements IQueryHandler<GetEntityQuery> {
  constructor(private readonly entities: EntitiesRepository) {}

  async execute({ auth, type, id }: GetEntityQuery): Promise<EntityWithEtag> {
    const state = await this.entities.state(auth.customer, auth.instance, type, id);
    if (!state?.entity) {
      throw new DomainError('not-found', `No ${type} with id ${id}`);
    }
    return { entity: state.entity, etag: etagOf(state.version) };
  }
}
