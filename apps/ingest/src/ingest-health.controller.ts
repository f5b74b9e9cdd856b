import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ClickHouseService, MigratorService } from '@app/clickhouse';
import type { ConsumerHealth } from './consumer-health';
import { IngestConsumer } from './ingest.consumer';

/** Probes of the ingest app (its only HTTP routes besides /metrics). */
@Controller('health')
export class IngestHealthController {
  constructor(
    private readonly consumer: IngestConsumer,
    private readonly ch: ClickHouseService,
    private readonly migrator: MigratorService,
  ) {}

  /** Liveness: unhealthy (503) when a partition has had messages waiting for 60 s without progress (STALL_THRESHOLD_MS). */
  @Get(['', 'live'])
  @HttpCode(200)
  async live(@Res({ passthrough: true }) res: FastifyReply): Promise<ConsumerHealth> {
    const health = await this.consumer.health();
    if (health.stalled || !health.running) res.status(503);
    return health;
  }

  /** Readiness: migrations ran, storage answers, the consumer runs. */
  @Get('ready')
  @HttpCode(200)
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<{ ready: boolean }> {
    const ready = this.migrator.migrated && (await this.consumer.health()).running && (await this.ch.ping());
    if (!ready) res.status(503);
    return { ready };
  }
}
