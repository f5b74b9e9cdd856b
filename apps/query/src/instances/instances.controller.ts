import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, PERMISSIONS, RequireCredential, type AuthContext, type Permission } from '@app/auth';

export class InstancesView {
  @ApiProperty({
    type: [String],
    example: ['live', 'stage'],
    description: "The instances the credential may use (X-Service-Instance), in the customer's order: the default first",
  })
  instances!: string[];

  @ApiProperty({
    enum: PERMISSIONS,
    enumName: 'Permission',
    isArray: true,
    example: ['search:read', 'entities:read'],
    description: "The credential's permissions, in colon notation: the dashboard shows only the actions they allow",
  })
  permissions!: Permission[];
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
    return { instances: [...auth.instances], permissions: PERMISSIONS.filter((p) => auth.permissions.has(p)) };
  }
}
