import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  ParseBoolPipe,
  Put,
  Query,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiErrors, DomainError } from '@app/errors';
import { ENTITY_TYPES, type EntityType } from '@app/contracts';
import { idsFromQuery } from '../common/ids-query';
import { PaginationDto } from '../common/pagination.dto';
import { OkView } from '../common/ok.view';
import { ApiPage, setTotalCount } from '../common/total-count';
import { DeleteEntitiesCommand } from './delete-entities.command';
import { DeleteEntityCommand } from './delete-entity.command';
import { BulkEntitiesDto, ENTITY_ID, EntityBodyDto } from './entity.dto';
import { DeleteEntitiesView, EntityView, SaveEntitiesView } from './entity.view';
import { EntityTypePipe } from './entity-type.pipe';
import { PrototypeKeysInterceptor } from './prototype-keys.interceptor';
import { GetEntityQuery } from './get-entity.query';
import { ListEntitiesQuery } from './list-entities.query';
import { etagOf } from './preconditions';
import { SaveEntitiesCommand } from './save-entities.command';

const autosavePipe = new ParseBoolPipe({
  optional: true,
  exceptionFactory: () => new DomainError('invalid', 'autosave must be true or false'),
});

const AUTOSAVE = {
  name: 'autosave',
  required: false,
  enum: ['true', 'false'],
  description: 'Store a revision only: no state change, no webhook call',
};

const ETAG_EXAMPLE = '"1764146400123456789"';

/** The ETag of a response: the entity's current state (required: whether it must be there). */
const etagHeader = (required: boolean, description: string) => ({
  ETag: { description, required, schema: { type: 'string', pattern: '^"[0-9]+"$', example: ETAG_EXAMPLE } },
});

const CONDITIONS = [
  {
    name: 'If-Match',
    required: false,
    description:
      'Save only if the entity exists and its ETag is one of these (strong comparison), or `*` for any existing entity; ' +
      'otherwise 412 and nothing is written (no row, no webhook call). For read-merge-write: send the ETag of the GET',
    schema: { type: 'string', example: ETAG_EXAMPLE },
  },
  {
    name: 'If-None-Match',
    required: false,
    description: 'With `*`: save only if the entity does not exist (create only); otherwise 412 and nothing is written',
    schema: { type: 'string', example: '*' },
  },
];

function entityId(id: string): string {
  if (!ENTITY_ID.test(id)) {
    throw new DomainError('invalid', 'id must be 1-200 characters of letters, digits and . _ : -');
  }
  return id;
}

/** The webhook's entity types: saves and deletes call the instance's webhook before they answer. */
@ApiTags('Entities')
@ApiParam({ name: 'type', enum: ENTITY_TYPES, enumName: 'EntityType', description: 'One of the webhook entity types' })
@Controller('entities/:type')
export class EntitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listEntities', summary: 'List the entities of a type', description: 'Ordered by id.' })
  @RequirePermission('entities:read')
  @ApiPage(EntityView, 'One page of entities; X-Total-Count holds the number of entities of the type')
  async list(
    @Auth() auth: AuthContext,
    @Param('type', EntityTypePipe) type: EntityType,
    @Query() page: PaginationDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<EntityView[]> {
    const { items, total } = await this.queries.execute(new ListEntitiesQuery(auth, type, page._start, page._end));
    setTotalCount(res, total);
    return items;
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getEntity', summary: 'Read one entity' })
  @RequirePermission('entities:read')
  @ApiOkResponse({
    type: EntityView,
    description: 'The entity',
    headers: etagHeader(true, 'The version of its saved state, strong: send it as If-Match to save only if it is unchanged'),
  })
  @ApiErrors([404, 'No entity of this type with this id'])
  async get(
    @Auth() auth: AuthContext,
    @Param('type', EntityTypePipe) type: EntityType,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<EntityView> {
    const { entity, etag } = await this.queries.execute(new GetEntityQuery(auth, type, entityId(id)));
    res.header('ETag', etag);
    return entity;
  }

  /** 201 when created, 200 when updated; `?autosave=true` stores a revision only (200, no webhook). */
  @Put(':id')
  @ApiOperation({
    operationId: 'saveEntity',
    summary: 'Create or update one entity',
    description:
      "Calls the instance's webhook (action create or update) before answering, unless `autosave=true`. With If-Match " +
      '(or If-None-Match) it saves only if the entity is still as read, also against saves at other query processes.',
  })
  @RequirePermission('entities:write')
  @UseInterceptors(PrototypeKeysInterceptor)
  @ApiQuery(AUTOSAVE)
  @ApiHeader(CONDITIONS[1])
  @ApiHeader(CONDITIONS[0])
  @ApiOkResponse({
    type: EntityView,
    description: 'Updated (or stored as an autosave revision)',
    headers: etagHeader(false, 'The ETag of the saved state (not sent for an autosave, which changes no state)'),
  })
  @ApiCreatedResponse({ type: EntityView, description: 'Created', headers: etagHeader(true, 'The ETag of the saved state') })
  @ApiErrors([
    412,
    'If-Match or If-None-Match does not hold (the entity changed since it was read, or does not exist): nothing was written',
  ])
  async save(
    @Auth() auth: AuthContext,
    @Param('type', EntityTypePipe) type: EntityType,
    @Param('id') id: string,
    @Query('autosave', autosavePipe) autosave: boolean | undefined,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Body() body: EntityBodyDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<EntityView> {
    const { view, versions } = await this.commands.execute(
      new SaveEntitiesCommand(auth, type, [{ ...body, id: entityId(id) }], autosave ?? false, { ifMatch, ifNoneMatch }),
    );
    if (!autosave) {
      res.header('ETag', etagOf(versions[0]));
    }
    res.status(view.created.length > 0 && !autosave ? 201 : 200);
    return view.items[0];
  }

  /** Bulk change: one webhook call per action (created ids in one, updated ids in another). */
  @Put()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'saveEntities',
    summary: 'Create or update several entities',
    description: 'One webhook call per action: the created ids in one, the updated ids in another.',
  })
  @RequirePermission('entities:write')
  @UseInterceptors(PrototypeKeysInterceptor)
  @ApiQuery(AUTOSAVE)
  @ApiOkResponse({ type: SaveEntitiesView, description: 'What the change did' })
  async saveMany(
    @Auth() auth: AuthContext,
    @Param('type', EntityTypePipe) type: EntityType,
    @Query('autosave', autosavePipe) autosave: boolean | undefined,
    @Body() body: BulkEntitiesDto,
  ): Promise<SaveEntitiesView> {
    return (await this.commands.execute(new SaveEntitiesCommand(auth, type, body.items, autosave ?? false))).view;
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteEntity',
    summary: 'Delete one entity',
    description: "Calls the instance's webhook (action remove, or delete for pages) before answering.",
  })
  @RequirePermission('entities:write')
  @ApiOkResponse({ type: OkView, description: 'Deleted' })
  @ApiErrors([404, 'No entity of this type with this id'])
  async remove(@Auth() auth: AuthContext, @Param('type', EntityTypePipe) type: EntityType, @Param('id') id: string): Promise<OkView> {
    await this.commands.execute(new DeleteEntityCommand(auth, type, entityId(id)));
    return { ok: true };
  }

  /** `?ids[]=a&ids[]=b`; unknown ids are ignored. */
  @Delete()
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteEntities', summary: 'Delete several entities', description: 'Unknown ids are ignored.' })
  @RequirePermission('entities:write')
  @ApiOkResponse({ type: DeleteEntitiesView, description: 'The ids that were deleted' })
  @ApiQuery({ name: 'ids[]', type: [String], required: true, description: 'Repeated: ids[]=a&ids[]=b (at most 1,000)' })
  async removeMany(
    @Auth() auth: AuthContext,
    @Param('type', EntityTypePipe) type: EntityType,
    @Req() req: FastifyRequest,
  ): Promise<DeleteEntitiesView> {
    const deleted = await this.commands.execute(new DeleteEntitiesCommand(auth, type, idsFromQuery(req.query as Record<string, unknown>)));
    return { ok: true, deleted };
  }
}
