import { Controller, Get, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { csvText, wantsCsv } from '../common/csv';
import { ApiPage, setTotalCount } from '../common/total-count';
import { SearchBreakdownDto, SearchBreakdownEntryView, type Breakdown } from './search-breakdown.dto';
import { SearchBreakdownQuery, searchBreakdownCriteria } from './search-breakdown.query';

/** The CSV key columns of each dimension; the figures follow. */
const KEY_COLUMNS: Record<Breakdown, Array<keyof SearchBreakdownEntryView>> = {
  filter_attribute: ['attribute'],
  filter_value: ['attribute', 'operator', 'value'],
  filter_set: ['filters'],
  country: ['country'],
  tag: ['tag'],
};
const FIGURES = ['searches', 'zero_hit_searches', 'zero_hit_rate', 'users'] as const;

function csvCell(entry: SearchBreakdownEntryView, column: keyof SearchBreakdownEntryView): string | number {
  const value = entry[column];
  return typeof value === 'object' ? JSON.stringify(value) : (value ?? '');
}

@ApiTags('Search terms')
@Controller('search-breakdown')
export class SearchBreakdownController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'getSearchBreakdown',
    summary: 'Break the searches of a time range down by filter, filter set, country or tag',
    description:
      "One dimension of the window's searches (`by`), most searched first: filter attributes, one attribute's values, " +
      'whole filter sets, countries or analytics tags, each with its searches, zero-result searches and rate, and users. ' +
      'A search with several filters counts once for each of its attributes and values, and once for its set; a search ' +
      'without the dimension is in no entry. `hits=false` with `by=filter_set` lists the filter sets that found nothing. ' +
      'As CSV with `format=csv` or `Accept: text/csv`: the key columns (`attribute,operator,value`; `filters` as a JSON ' +
      'array), then `searches,zero_hit_searches,zero_hit_rate,users`.',
  })
  @RequirePermission('search:read')
  @ApiPage(SearchBreakdownEntryView, 'One page of entries; X-Total-Count holds the number of entries before paging', {
    csv: 'attribute,searches,zero_hit_searches,zero_hit_rate,users\r\nbrand,120,9,0.075,80\r\n',
  })
  async get(
    @Auth() auth: AuthContext,
    @Query() q: SearchBreakdownDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchBreakdownEntryView[] | StreamableFile> {
    const csv = wantsCsv(q, req);
    const criteria = searchBreakdownCriteria(auth, q, csv, req.query as object);
    const { items, total } = await this.queries.execute(new SearchBreakdownQuery(criteria));
    setTotalCount(res, total);
    if (!csv) {
      return items;
    }
    const columns = [...KEY_COLUMNS[q.by], ...FIGURES];
    const text = csvText(
      columns,
      items.map((entry) => columns.map((column) => csvCell(entry, column))),
    );
    return new StreamableFile(Buffer.from(text), {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="search-breakdown.csv"',
    });
  }
}
