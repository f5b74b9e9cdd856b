import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiPage, setTotalCount } from '../common/total-count';
import { SearchTermsDto, SearchTermView } from './search-terms.dto';
import { SearchTermsQuery } from './search-terms.query';

@ApiTags('Search terms')
@Controller('search-terms')
export class SearchTermsController {
  constructor(private readonly queries: QueryBus) {}

  /** Terms of the window, count desc then phrase asc; X-Total-Count holds the number of terms before paging. */
  @Get()
  @ApiOperation({
    operationId: 'listSearchTerms',
    summary: 'List the search terms of a time range',
    description:
      'The terms shoppers searched in the window, by count (descending) then phrase. With `hits=false` the terms that ' +
      'found nothing, each with its handled status.',
  })
  @RequirePermission('search:read')
  @ApiPage(SearchTermView, 'One page of terms; X-Total-Count holds the number of terms before paging')
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
