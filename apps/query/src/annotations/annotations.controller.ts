import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiErrors, DomainError } from '@app/errors';
import { OkView } from '../common/ok.view';
import { ApiPage, setTotalCount } from '../common/total-count';
import { CreateAnnotationDto, ListAnnotationsDto, parseAnnotationTime } from './annotation.dto';
import { AnnotationView } from './annotation.view';
import { CreateAnnotationCommand } from './create-annotation.command';
import { DeleteAnnotationCommand } from './delete-annotation.command';
import { ListAnnotationsQuery } from './list-annotations.query';

const annotationId = new ParseUUIDPipe({
  exceptionFactory: () => new DomainError('invalid', 'id must be the UUID of an annotation (as POST /annotations answers it)'),
});

/** Notes on the instance's timeline (a campaign, a release), drawn on the dashboard's charts. */
@ApiTags('Annotations')
@Controller('annotations')
export class AnnotationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createAnnotation',
    summary: 'Annotate a moment',
    description: 'A note at `ts` (default now) that the dashboard draws on its charts. 400 naming `text` or `ts` when either is not valid.',
  })
  @RequirePermission('annotations:write')
  @ApiCreatedResponse({ type: AnnotationView, description: 'Created' })
  create(@Auth() auth: AuthContext, @Body() body: CreateAnnotationDto): Promise<AnnotationView> {
    const ts = typeof body.ts === 'string' ? parseAnnotationTime(body.ts).toMillis() : Date.now();
    return this.commands.execute(new CreateAnnotationCommand(auth, ts, body.text));
  }

  @Get()
  @ApiOperation({
    operationId: 'listAnnotations',
    summary: 'List the annotations of a window',
    description:
      'The annotations whose `ts` lies in the window (the window parameters and their rules are those of GET /search-terms), ' +
      'oldest first (then by id).',
  })
  @RequirePermission('annotations:read')
  @ApiPage(AnnotationView, 'One page of the annotations of the window; X-Total-Count holds their number')
  async list(
    @Auth() auth: AuthContext,
    @Query() q: ListAnnotationsDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<AnnotationView[]> {
    const { since, from, to, tz } = q;
    const { items, total } = await this.queries.execute(new ListAnnotationsQuery(auth, { since, from, to, tz }, q._start, q._end));
    setTotalCount(res, total);
    return items;
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteAnnotation', summary: 'Delete an annotation' })
  @RequirePermission('annotations:write')
  @ApiParam({ name: 'id', format: 'uuid', description: 'The id of POST /annotations' })
  @ApiOkResponse({ type: OkView, description: 'Deleted' })
  @ApiErrors([404, 'No annotation with this id in the instance'])
  async remove(@Auth() auth: AuthContext, @Param('id', annotationId) id: string): Promise<OkView> {
    // Ids are stored as POST answers them, in lower case; the pipe also takes upper case.
    await this.commands.execute(new DeleteAnnotationCommand(auth, id.toLowerCase()));
    return { ok: true };
  }
}
