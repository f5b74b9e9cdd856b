import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { DATA_UPDATED_AT_DOC, setDataUpdatedAt } from '../analytics/data-updated-at';
import { SearchStatsDto, SearchStatsView } from './search-stats.dto';
import { SearchStatsQuery } from './search-stats.query';

@ApiTags('Search statistics')
@Controller('search-stats')
export class SearchStatsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'getSearchStats',
    summary: 'Searches, zero-result rate and distinct terms over time',
    description:
      'Totals of the window (searches, zero-result searches and rate, distinct terms), a series per hour or day (in tz) ' +
      'with every bucket present, the languages searched in the window (most searched first, whatever the `language` ' +
      'filter), and with `compare=previous` the totals of the window before. With `engagement=true` the totals, ' +
      'previous totals and buckets also have the clicks and conversions of the tracked searches, and the totals the ' +
      'unattributed clicks and conversions.',
  })
  @RequirePermission('search:read')
  @ApiOkResponse({ type: SearchStatsView, description: 'Totals and series of the window', headers: DATA_UPDATED_AT_DOC })
  async get(
    @Auth() auth: AuthContext,
    @Query() q: SearchStatsDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchStatsView> {
    const { view, updatedAt } = await this.queries.execute(SearchStatsQuery.of(auth, q));
    setDataUpdatedAt(res, updatedAt);
    return view;
  }
}
