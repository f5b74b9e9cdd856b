import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ApiKeysRepository, keyInScope } from '@app/auth';
import { toView, type ApiKeyView } from '../api-key.view';
import { ListApiKeysQuery } from './list-api-keys.query';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(private readonly keys: ApiKeysRepository) {}

  /** The active keys the credential may see: all of its customer's, or for a limited one those within its instances. */
  async execute({ auth }: ListApiKeysQuery): Promise<ApiKeyView[]> {
    return (await this.keys.all(auth.customer)).filter((k) => !k.revoked && keyInScope(k, auth)).map(toView);
  }
}
