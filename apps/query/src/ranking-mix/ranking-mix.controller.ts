import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import type { BoostField } from '@app/contracts';
import { CheckDataQuery, type FieldCheck } from './check-data.query';

@Controller('ranking-mix-config')
export class RankingMixController {
  constructor(private readonly queries: QueryBus) {}

  /** All seven fields, each `{ result: true }` or `{ result: false, reasons }`, over the current documents. */
  @Get('check-data')
  @RequirePermission('ranking-mix:read')
  checkData(@Auth() auth: AuthContext): Promise<Record<BoostField, FieldCheck>> {
    return this.queries.execute(new CheckDataQuery(auth.customer, auth.instance));
  }
}
