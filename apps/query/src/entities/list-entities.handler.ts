import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntitiesRepository } from './entities.repository';
import type { EntityView } from './entity.view';
import { ListEntitiesQuery } from './list-entities.query';

@QueryHandler(ListEntitiesQuery)
export class ListEntitiesHandler implements IQueryHandler<ListEntitiesQuery> {
  constructor(private readonly entities: EntitiesRepository) {}

  execute({ auth, type, start, end }: ListEntitiesQuery): Promise<{ items: EntityView[]; total: number }> {
    return this.entities.list(auth.customer, auth.instance, type, start, end);
  }
}
