import { Query } from '@nestjs/cqrs';
import type { ApiKeyView } from '../api-key.view';

export class ListApiKeysQuery extends Query<ApiKeyView[]> {
  constructor(readonly customer: string) {
    super();
  }
}
