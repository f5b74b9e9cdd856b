import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { ApiKeyView } from '../api-key.view';

export class ListApiKeysQuery extends Query<ApiKeyView[]> {
  constructor(readonly auth: AuthContext) {
    super();
  }
}
