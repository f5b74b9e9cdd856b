import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '@app/auth';
import { ClickHouseService } from '@app/clickhouse';

@Controller('health')
export class HealthController {
  constructor(private readonly ch: ClickHouseService) {}

  /** 200 when storage answers, 503 otherwise; no credentials needed (load balancers call it). */
  @Public()
  @Get()
  @HttpCode(200)
  async health(@Res({ passthrough: true }) res: Response): Promise<{ status: 'ok' | 'unavailable'; storage: 'up' | 'down' }> {
    const up = await this.ch.ping();
    if (!up) res.status(503);
    return up ? { status: 'ok', storage: 'up' } : { status: 'unavailable', storage: 'down' };
  }
}
