import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { CreateApiKeyHandler } from './commands/create-api-key.handler';
import { RevokeApiKeyHandler } from './commands/revoke-api-key.handler';
import { ListApiKeysHandler } from './queries/list-api-keys.handler';
import { ApiKeysController } from './api-keys.controller';

@Module({
  imports: [AuthModule],
  controllers: [ApiKeysController],
  providers: [CreateApiKeyHandler, RevokeApiKeyHandler, ListApiKeysHandler],
})
export class ApiKeysModule {}
