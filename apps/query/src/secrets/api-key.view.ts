import type { ApiKey } from '@app/auth';

/** An API key as listed: never the secret. */
export interface ApiKeyView {
  id: string;
  description: string;
  permissions: string[];
  createdAt: string;
}

/** The one answer that shows the secret: POST /secret. */
export interface CreatedApiKeyView extends ApiKeyView {
  secret: string;
}

export function toView(key: ApiKey): ApiKeyView {
  return { id: key.id, description: key.description, permissions: [...key.permissions], createdAt: new Date(key.createdAt).toISOString() };
}
