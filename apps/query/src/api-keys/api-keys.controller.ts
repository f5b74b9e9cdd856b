import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiErrors } from '@app/errors';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiKeyView, CreatedApiKeyView } from './api-key.view';
import { OkView } from '../common/ok.view';
import { CreateApiKeyCommand } from './commands/create-api-key.command';
import { RevokeApiKeyCommand } from './commands/revoke-api-key.command';
import { CreateApiKeyDto } from './create-api-key.dto';
import { ListApiKeysQuery } from './queries/list-api-keys.query';

@ApiTags('API keys')
@Controller('secret')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'With `permissions` or the `importer` preset, and optionally `instances`; a caller can only grant permissions it holds ' +
      'itself and instances it may act on. A key made by a credential limited to instances is limited to them too.',
  })
  @RequirePermission('secret:write')
  @ApiCreatedResponse({ type: CreatedApiKeyView, description: 'The new key, with its secret (shown only here)' })
  create(@Auth() auth: AuthContext, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyView> {
    return this.commands.execute(new CreateApiKeyCommand(auth, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List the API keys',
    description:
      'Active keys of the customer, without secrets; to a credential limited to instances, only the keys whose ' +
      'instances all lie within its own.',
  })
  @RequirePermission('secret:read')
  @ApiOkResponse({ type: ApiKeyView, isArray: true, description: 'The active keys' })
  list(@Auth() auth: AuthContext): Promise<ApiKeyView[]> {
    return this.queries.execute(new ListApiKeysQuery(auth));
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key', description: 'Requests signed with it fail from then on.' })
  @RequirePermission('secret:write')
  @ApiOkResponse({ type: OkView, description: 'Revoked' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The id of GET /secret' })
  @ApiErrors([404, 'No active API key with this id that the credential may see (a limited one: within its instances)'])
  async revoke(@Auth() auth: AuthContext, @Param('id', new ParseUUIDPipe()) id: string): Promise<OkView> {
    await this.commands.execute(new RevokeApiKeyCommand(auth, id));
    return { ok: true };
  }
}
