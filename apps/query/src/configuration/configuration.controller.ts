import { Body, Controller, Get, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ConfigurationDto, type ConfigurationView } from './configuration.dto';
import { GetConfigurationQuery } from './get-configuration.query';
import { UpdateConfigurationCommand } from './update-configuration.command';

@Controller('configuration')
export class ConfigurationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequirePermission('configuration:read')
  get(@Auth() auth: AuthContext): Promise<ConfigurationView> {
    return this.queries.execute(new GetConfigurationQuery(auth.customer, auth.instance));
  }

  /** 200 with the stored configuration; an empty url disables the webhook. */
  @Put()
  @RequirePermission('configuration:write')
  update(@Auth() auth: AuthContext, @Body() body: ConfigurationDto): Promise<ConfigurationView> {
    return this.commands.execute(new UpdateConfigurationCommand(auth, body.webhookConfig.url));
  }
}
