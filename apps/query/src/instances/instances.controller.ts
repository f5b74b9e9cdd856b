import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, RequireCredential, type AuthContext } from '@app/auth';

export class InstancesView {
  @ApiProperty({
    type: [String],
    example: ['live', 'stage'],
    description: "The instances the credential may use (X-Service-Instance), in the customer's order: the default first",
  })
  instances!: string[];
}

/** The dashboard's instance selector: no storage read beyond authentication, so no query handler. */
@ApiTags('Instances')
@Controller('instances')
export class InstancesController {
  @Get()
  @ApiOperation({
    operationId: 'listInstances',
    summary: 'List the instances this credential may use',
    description: 'Any valid credential, no permission needed. A JWT with an `instances` claim sees only those.',
  })
  @RequireCredential()
  @ApiOkResponse({ type: InstancesView, description: 'The instances, the default first' })
  list(@Auth() auth: AuthContext): InstancesView {
    return { instances: [...auth.instances] };
  }
}
