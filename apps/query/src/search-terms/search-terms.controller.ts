import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiTotalCount, setTotalCount } from '../common/total-count';
import { SearchTermsDto, type SearchTermView } from './search-terms.dto';
import { SearchTermsQuery } from './search-terms.query';

@Controller('search-terms')
export class SearchTermsController {
  constructor(private readonly queries: QueryBus) {}

  /** Terms of the window, count desc then phrase asc; X-Total-Count holds the number of terms before paging. */
  @Get()
  @RequirePermission('search:read')
  @ApiTotalCount()
  async list(
    @Auth() auth: AuthContext,
    @Query() q: SearchTermsDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchTermView[]> {
    const { items, total } = await this.queries.execute(
      new SearchTermsQuery({
        customer: auth.customer,
        instance: auth.instance,
        sinceDays: Number(q.since.slice(0, -1)),
        language: q.language,
        includeBots: q.includeBotTraffic === 'true',
        zeroHits: q.hits === 'false',
        start: q._start,
        end: q._end,
      }),
    );
    setTotalCount(res, total);
    return items;
  }
}
