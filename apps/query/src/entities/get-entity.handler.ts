import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { EntitiesRepository } from './entities.repository';
import type { EntityView } from './entity.view';
import { GetEntityQuery } from './get-entity.query';

@QueryHandler(GetEntityQuery)
export class GetEntityHandler implements IQueryHandler<GetEntityQuery> {
  constructor(private readonly entities: EntitiesRepository) {}

  async execute({ auth, type, id }: GetEntityQuery): Promise<EntityView> {
    const found = (await this.entities.find(auth.customer, auth.instance, type, [id])).get(id);
    if (!found) {
      throw new DomainError('not-found', `No ${type} with id ${id}`);
    }
    return found;
  }
}
