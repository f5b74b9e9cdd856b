import { Controller, Delete, Get, HttpCode, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { NotificationView } from '@app/notifications';
import { NotificationsPageDto } from './notifications-page.dto';
import { idsFromQuery } from '../common/ids-query';
import { OkView } from '../common/ok.view';
import { ApiPage, setTotalCount } from '../common/total-count';
import { DeleteNotificationsCommand } from './delete-notifications.command';
import { ListNotificationsQuery } from './list-notifications.query';

@ApiTags('Notifications')
@Controller('notifications')
export class NotificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Newest first, with X-Total-Count. */
  @Get()
  @ApiOperation({
    operationId: 'listNotifications',
    summary: 'List the notifications',
    description: "The instance's notifications (failed webhook calls, rejected events, alerts), newest first; `type` keeps one kind.",
  })
  @RequirePermission('notifications:read')
  @ApiPage(NotificationView, 'One page of notifications; X-Total-Count holds their number')
  async list(
    @Auth() auth: AuthContext,
    @Query() page: NotificationsPageDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<NotificationView[]> {
    const { items, total } = await this.queries.execute(
      new ListNotificationsQuery(auth.customer, auth.instance, page._start, page._end, page.type),
    );
    setTotalCount(res, total);
    return items;
  }

  /** `?ids[]=a&ids[]=b`: 400 when ids is not an array (and nothing is deleted); unknown ids are ignored. */
  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteNotifications',
    summary: 'Delete notifications',
    description: 'By id, as repeated `ids[]` parameters; unknown ids are ignored. 400 when ids is not an array.',
  })
  @RequirePermission('notifications:write')
  @ApiOkResponse({ type: OkView, description: 'Deleted' })
  @ApiQuery({ name: 'ids[]', type: [String], required: true, description: 'Repeated: ids[]=a&ids[]=b (at most 1,000)' })
  async remove(@Auth() auth: AuthContext, @Req() req: FastifyRequest): Promise<OkView> {
    await this.commands.execute(
      new DeleteNotificationsCommand(auth.customer, auth.instance, idsFromQuery(req.query as Record<string, unknown>)),
    );
    return { ok: true };
  }
}
