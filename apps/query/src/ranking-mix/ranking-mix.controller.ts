import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckDataQuery } from './check-data.query';
import { RankingMixView } from './ranking-mix.view';

@ApiTags('Ranking mix')
@Controller('ranking-mix-config')
export class RankingMixController {
  constructor(private readonly queries: QueryBus) {}

  /** All seven fields, each `{ result: true }` or `{ result: false, reasons }`, over the current documents. */
  @Get('check-data')
  @ApiOperation({
    operationId: 'checkRankingMixData',
    summary: 'Check the catalogue data of each ranking mix boost field',
    description: 'Over the current (not deleted) documents. Data problems are reported in the answer, not as errors.',
  })
  @RequirePermission('ranking-mix:read')
  @ApiOkResponse({ type: RankingMixView, description: 'One verdict per boost field' })
  checkData(@Auth() auth: AuthContext): Promise<RankingMixView> {
    return this.queries.execute(new CheckDataQuery(auth.customer, auth.instance));
  }
}
