import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ApiKeysRepository } from '@app/auth';
import { toView, type ApiKeyView } from '../api-key.view';
import { ListApiKeysQuery } from './list-api-keys.query';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(private readonly keys: ApiKeysRepository) {}

  async execute({ customer }: ListApiKeysQuery): Promise<ApiKeyView[]> {
    return (await this.keys.all(customer)).filter((k) => !k.revoked).map(toView);
  }
}
