import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '@app/auth';
import { ClickHouseService, MigratorService } from '@app/clickhouse';

type Health = { status: 'ok' | 'unavailable'; storage: 'up' | 'down' };

/** Probes: no credentials (load balancers and orchestrators call them). */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly migrator: MigratorService,
  ) {}

  /** 200 when storage answers, 503 otherwise. */
  @Get()
  @HttpCode(200)
  async health(@Res({ passthrough: true }) res: FastifyReply): Promise<Health> {
    const up = await this.ch.ping();
    if (!up) res.status(503);
    return up ? { status: 'ok', storage: 'up' } : { status: 'unavailable', storage: 'down' };
  }

  /** Liveness: the process serves HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: migrations ran and storage answers. */
  @Get('ready')
  @HttpCode(200)
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<Health & { migrated: boolean }> {
    const up = await this.ch.ping();
    const ok = up && this.migrator.migrated;
    if (!ok) res.status(503);
    return { status: ok ? 'ok' : 'unavailable', storage: up ? 'up' : 'down', migrated: this.migrator.migrated };
  }
}
