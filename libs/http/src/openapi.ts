import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document generated from the controllers and DTOs. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Search analytics')
    .setDescription('Search analytics and configuration backend for online shops. Errors are `{ statusCode, error, message }`.')
    .setVersion('0.1.0')
    .addSecurity('hmac', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Service-Hash',
      description: "hex HMAC-SHA256 of X-Service-Nonce + ':' + body, keyed with an API key's secret",
    })
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'The instance credentials' }, 'basic')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Admin user token; permissions in dot notation' },
      'jwt',
    )
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /docs-json and the UI at /docs (public). */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
