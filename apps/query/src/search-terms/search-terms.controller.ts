import { Controller, Get, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { DATA_UPDATED_AT_DOC, setDataUpdatedAt } from '../analytics/data-updated-at';
import { wantsCsv } from '../common/csv';
import { ApiPage, setTotalCount } from '../common/total-count';
import { SearchTermsDto, SearchTermView } from './search-terms.dto';
import { ExportSearchTermsQuery, SearchTermsQuery, searchTermsCriteria } from './search-terms.query';

@ApiTags('Search terms')
@Controller('search-terms')
export class SearchTermsController {
  constructor(private readonly queries: QueryBus) {}

  /** Terms of the window in the order of `sort`; X-Total-Count holds the number of terms before paging. */
  @Get()
  @ApiOperation({
    operationId: 'listSearchTerms',
    summary: 'List the search terms of a time range',
    description:
      'The terms shoppers searched in the window, by count (descending) then phrase. With `hits=false` the terms that ' +
      'found nothing, each with its handled status. With `compare=previous` each term also has its count in the ' +
      'window before (`previous_count`) and the `change`; `sort=rising` puts the largest growth first. As CSV with ' +
      '`format=csv` or `Accept: text/csv`: header `search_phrase,count` (then `previous_count,change` with compare, ' +
      '`handled,handlers` with hits=false, then the engagement fields with engagement=true), CRLF line ends, fields ' +
      'quoted only when needed; without `_start`/`_end` every term up to 100,000. With `engagement=true` each term ' +
      'also has the clicks and conversions of its tracked searches. Four orders by those figures (each implies ' +
      'engagement=true; with hits=true or hits=all): `sort=no_clicks` (the most tracked searches without a click ' +
      'first), `click_through_rate`, `conversion_rate`, `average_click_position`; `order=asc` reverses them (not with ' +
      '`sort=rising`).',
  })
  @RequirePermission('search:read')
  @ApiPage(SearchTermView, 'One page of terms; X-Total-Count holds the number of terms before paging', {
    headers: DATA_UPDATED_AT_DOC,
    csv: 'search_phrase,count\r\nsummer dress,42\r\n"shoes, red",7\r\n',
  })
  async list(
    @Auth() auth: AuthContext,
    @Query() q: SearchTermsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchTermView[] | StreamableFile> {
    const csv = wantsCsv(q, req);
    const criteria = searchTermsCriteria(auth, q, csv, req.query as object);
    if (!csv) {
      const { items, total, updatedAt } = await this.queries.execute(new SearchTermsQuery(criteria));
      setTotalCount(res, total);
      setDataUpdatedAt(res, updatedAt);
      return items;
    }
    const { csv: answer, total, updatedAt } = await this.queries.execute(new ExportSearchTermsQuery(criteria));
    setTotalCount(res, total);
    setDataUpdatedAt(res, updatedAt);
    return new StreamableFile(answer, {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="search-terms.csv"',
    });
  }
}
