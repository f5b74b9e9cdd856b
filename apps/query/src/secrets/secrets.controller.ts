import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import type { ApiKeyView, CreatedApiKeyView } from './api-key.view';
import { CreateApiKeyCommand } from './commands/create-api-key.command';
import { RevokeApiKeyCommand } from './commands/revoke-api-key.command';
import { CreateSecretDto } from './create-secret.dto';
import { ListApiKeysQuery } from './queries/list-api-keys.query';

@Controller('secret')
export class SecretsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @RequirePermission('secret:write')
  create(@Auth() auth: AuthContext, @Body() body: CreateSecretDto): Promise<CreatedApiKeyView> {
    return this.commands.execute(new CreateApiKeyCommand(auth, body));
  }

  @Get()
  @RequirePermission('secret:read')
  list(@Auth() auth: AuthContext): Promise<ApiKeyView[]> {
    return this.queries.execute(new ListApiKeysQuery(auth.customer));
  }

  @Delete(':id')
  @HttpCode(200)
  @RequirePermission('secret:write')
  async revoke(@Auth() auth: AuthContext, @Param('id', new ParseUUIDPipe()) id: string): Promise<{ ok: true }> {
    await this.commands.execute(new RevokeApiKeyCommand(auth.customer, id));
    return { ok: true };
  }
}
