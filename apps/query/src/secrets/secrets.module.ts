import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { CreateApiKeyHandler } from './commands/create-api-key.handler';
import { RevokeApiKeyHandler } from './commands/revoke-api-key.handler';
import { ListApiKeysHandler } from './queries/list-api-keys.handler';
import { SecretsController } from './secrets.controller';

@Module({
  imports: [AuthModule],
  controllers: [SecretsController],
  providers: [CreateApiKeyHandler, RevokeApiKeyHandler, ListApiKeysHandler],
})
export class SecretsModule {}
