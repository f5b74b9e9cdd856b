import { Controller, Get, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { csvText, wantsCsv } from '../common/csv';
import { ApiPage, setTotalCount } from '../common/total-count';
import { ClickedObjectsDto, ClickedObjectView } from './clicked-objects.dto';
import { ClickedObjectsQuery, clickedObjectsCriteria } from './clicked-objects.query';

const COLUMNS = [
  'object_id',
  'clicks',
  'clicked_searches',
  'conversions',
  'added_to_cart_searches',
  'purchased_searches',
  'purchase_revenue',
] as const;

@ApiTags('Search terms')
@Controller('clicked-objects')
export class ClickedObjectsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listClickedObjects',
    summary: 'The objects shoppers clicked after the searches of a time range',
    description:
      "The objects clicked from the window's tracked searches (searches sent with an id that found results), most clicked " +
      'first, then by id, each with its clicks, the searches that clicked it, its conversions, the searches that added ' +
      "it to the cart or purchased it, and the value of its purchases. `phrase` restricts to one phrase's searches. As " +
      'CSV with `format=csv` or `Accept: text/csv`: header `' +
      COLUMNS.join(',') +
      '`, `purchase_revenue` as `CUR:amount` joined by `|`.',
  })
  @RequirePermission('search:read')
  @ApiPage(ClickedObjectView, 'One page of objects; X-Total-Count holds the number of objects before paging', {
    csv: `${COLUMNS.join(',')}\r\nsku-42,30,24,5,4,2,EUR:59.8\r\n`,
  })
  async list(
    @Auth() auth: AuthContext,
    @Query() q: ClickedObjectsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ClickedObjectView[] | StreamableFile> {
    const csv = wantsCsv(q, req);
    const { items, total } = await this.queries.execute(new ClickedObjectsQuery(clickedObjectsCriteria(auth, q, csv, req.query as object)));
    setTotalCount(res, total);
    if (!csv) {
      return items;
    }
    const revenue = (r: Record<string, number>) =>
      Object.entries(r)
        .map(([currency, amount]) => `${currency}:${amount}`)
        .join('|');
    const rows = items.map((o) => COLUMNS.map((c) => (c === 'purchase_revenue' ? revenue(o.purchase_revenue) : o[c])));
    return new StreamableFile(Buffer.from(csvText(COLUMNS, rows)), {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="clicked-objects.csv"',
    });
  }
}
