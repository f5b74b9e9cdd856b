import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiErrors } from '@app/errors';
import { ConfigurationDto, ConfigurationView } from './configuration.dto';
import { GetConfigurationQuery } from './get-configuration.query';
import { UpdateConfigurationCommand } from './update-configuration.command';

@ApiTags('Configuration')
@Controller('configuration')
export class ConfigurationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getConfiguration',
    summary: "Read the instance's configuration",
    description: 'The webhook URL ("" when none is set), the alert configuration (null when alerts are off) and the Algolia index names.',
  })
  @RequirePermission('configuration:read')
  @ApiOkResponse({ type: ConfigurationView, description: 'The stored configuration' })
  get(@Auth() auth: AuthContext): Promise<ConfigurationView> {
    return this.queries.execute(new GetConfigurationQuery(auth));
  }

  /** 200 with the stored configuration; an empty url disables the webhook. */
  @Put()
  @ApiOperation({
    operationId: 'updateConfiguration',
    summary: "Set the instance's configuration",
    description:
      'Sets, changes or (with an empty url) disables the webhook delivery URL. The URL must be absolute http(s) and, ' +
      'unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is set, resolve to a public address. `alertConfig` sets the alerts ' +
      '(docs/alerts.md); null turns them off, absent keeps them. `algoliaIndexes` names the Algolia indices that ' +
      "Algolia's Analytics API reads as this instance (docs/algolia.md): a name another instance holds is 409, an " +
      "instance's name 400; absent keeps them.",
  })
  @RequirePermission('configuration:write')
  @ApiErrors([409, 'An index name in algoliaIndexes is held by another instance'])
  @ApiOkResponse({ type: ConfigurationView, description: 'The stored configuration' })
  update(@Auth() auth: AuthContext, @Body() body: ConfigurationDto): Promise<ConfigurationView> {
    return this.commands.execute(new UpdateConfigurationCommand(auth, body.webhookConfig.url, body.alertConfig, body.algoliaIndexes));
  }
}
