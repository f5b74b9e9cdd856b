import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiErrors } from '@app/errors';
import { DATA_UPDATED_AT_DOC, setDataUpdatedAt } from '../analytics/data-updated-at';
import { TermIdPipe } from './term-id.pipe';
import { SearchTermDetailView, TermDetailDto } from './term-detail.dto';
import { TermDetailQuery } from './term-detail.query';

@ApiTags('Search terms')
@Controller('search-terms')
export class TermDetailController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @ApiOperation({
    operationId: 'getSearchTerm',
    summary: "One search term's counts, series and spellings",
    description:
      'Every search of the term in the window (with results or not), the zero-result ones, a series per hour or day ' +
      '(in tz) with every bucket present, the original spellings and the handled status. With `engagement=true` also ' +
      'the clicks and conversions of its tracked searches, its clicks per position and its most clicked objects.',
  })
  @ApiParam({
    name: 'id',
    description: 'The id of a GET /search-terms entry',
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$', example: '892e95f4685a6d36bdb06f63b12becbb' },
  })
  @RequirePermission('search:read')
  @ApiOkResponse({ type: SearchTermDetailView, description: 'The term over the window', headers: DATA_UPDATED_AT_DOC })
  @ApiErrors([404, 'No search of the term in the window (under the filters)'])
  async get(
    @Auth() auth: AuthContext,
    @Param('id', TermIdPipe) id: string,
    @Query() q: TermDetailDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchTermDetailView> {
    const { view, updatedAt } = await this.queries.execute(TermDetailQuery.of(id, auth, q));
    setDataUpdatedAt(res, updatedAt);
    return view;
  }
}
