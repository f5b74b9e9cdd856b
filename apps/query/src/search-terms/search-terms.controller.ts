import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { setTotalCount } from '../common/total-count';
import { SearchTermsDto, type SearchTermView } from './search-terms.dto';
import { SearchTermsQuery } from './search-terms.query';

@Controller('search-terms')
export class SearchTermsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: AppConfig,
  ) {}

  /** Terms of the window, count desc then phrase asc; X-Total-Count holds the number of terms before paging. */
  @Get()
  @RequirePermission('search:read')
  @ApiResponse({ status: 200, headers: { 'X-Total-Count': { description: 'Number of items before pagination', schema: { type: 'integer' } } } })
  async list(@Auth() auth: AuthContext, @Query() q: SearchTermsDto, @Res({ passthrough: true }) res: FastifyReply): Promise<SearchTermView[]> {
    const sinceDays = Number(q.since.slice(0, -1));
    if (sinceDays > this.config.retentionDays) {
      throw new DomainError('invalid', `since must be at most ${this.config.retentionDays}d (the retention)`);
    }
    const { items, total } = await this.queries.execute(
      new SearchTermsQuery({
        customer: auth.customer,
        instance: auth.instance,
        sinceDays,
        language: q.language,
        includeBots: q.includeBotTraffic === 'true',
        hits: q.hits === 'true',
        start: q._start,
        end: q._end,
      }),
    );
    setTotalCount(res, total);
    return items;
  }
}
