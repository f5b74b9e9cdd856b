import { Controller, Delete, Get, HttpCode, Query, Req, Res } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import type { NotificationView } from '@app/notifications';
import { idsFromQuery } from '../common/ids-query';
import { PaginationDto } from '../common/pagination.dto';
import { ApiTotalCount, setTotalCount } from '../common/total-count';
import { DeleteNotificationsCommand } from './delete-notifications.command';
import { ListNotificationsQuery } from './list-notifications.query';

@Controller('notifications')
export class NotificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Newest first, with X-Total-Count. */
  @Get()
  @RequirePermission('notifications:read')
  @ApiTotalCount()
  async list(
    @Auth() auth: AuthContext,
    @Query() page: PaginationDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<NotificationView[]> {
    const { items, total } = await this.queries.execute(new ListNotificationsQuery(auth.customer, auth.instance, page._start, page._end));
    setTotalCount(res, total);
    return items;
  }

  /** `?ids[]=a&ids[]=b`: 400 when ids is not an array (and nothing is deleted); unknown ids are ignored. */
  @Delete()
  @HttpCode(200)
  @RequirePermission('notifications:write')
  @ApiQuery({ name: 'ids[]', type: [String], required: true, description: 'Repeated: ids[]=a&ids[]=b (at most 1,000)' })
  async remove(@Auth() auth: AuthContext, @Req() req: FastifyRequest): Promise<{ ok: true }> {
    await this.commands.execute(
      new DeleteNotificationsCommand(auth.customer, auth.instance, idsFromQuery(req.query as Record<string, unknown>)),
    );
    return { ok: true };
  }
}
