import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ClickHouseService, MigratorService } from '@app/clickhouse';
import { ConsumerHealth } from './consumer-health';
import { IngestConsumer } from './ingest.consumer';

class IngestReadiness {
  @ApiProperty({ description: 'Migrations ran, storage answers and the consumer runs' })
  ready!: boolean;
}

/** Probes of the ingest app (its only HTTP routes besides /metrics). */
@ApiTags('Health')
@Controller('health')
export class IngestHealthController {
  constructor(
    private readonly consumer: IngestConsumer,
    private readonly ch: ClickHouseService,
    private readonly migrator: MigratorService,
  ) {}

  /**
   * Liveness: unhealthy (503) when a partition's messages have waited for 60 s (STALL_THRESHOLD_MS) since they
   * arrived, or since its last commit, without a commit.
   */
  @Get(['', 'live'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the consumer runs and no partition is stalled' })
  @ApiOkResponse({ type: ConsumerHealth, description: 'Alive' })
  @ApiServiceUnavailableResponse({ type: ConsumerHealth, description: 'Stopped or stalled' })
  async live(@Res({ passthrough: true }) res: FastifyReply): Promise<ConsumerHealth> {
    const health = await this.consumer.health();
    if (health.stalled || !health.running) res.status(503);
    return health;
  }

  /** Readiness: migrations ran, storage answers, the consumer runs. */
  @Get('ready')
  @HttpCode(200)
  @ApiOperation({ operationId: 'ingestReadiness', summary: 'Readiness: migrations ran, storage answers, the consumer runs' })
  @ApiOkResponse({ type: IngestReadiness, description: 'Ready' })
  @ApiServiceUnavailableResponse({ type: IngestReadiness, description: 'Not ready' })
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<IngestReadiness> {
    const ready = this.migrator.migrated && (await this.consumer.health()).running && (await this.ch.ping());
    if (!ready) res.status(503);
    return { ready };
  }
}
