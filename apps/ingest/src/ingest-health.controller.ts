import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiSchema,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ClickHouseService, MigratorService } from '@app/clickhouse';
import { ConsumerHealthView } from './consumer-health';
import { IngestConsumer } from './ingest.consumer';

@ApiSchema({ name: 'IngestReadiness' }) // the schema name generated clients already use
class IngestReadinessView {
  @ApiProperty({
    description: 'Migrations ran, storage answers, the consumer runs and is a member of its group whose heartbeats the broker answers',
  })
  ready!: boolean;

  @ApiPropertyOptional({ description: 'Why it is not ready (absent when ready)', example: 'the consumer group has not been joined yet' })
  reason?: string;
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
  @ApiOkResponse({ type: ConsumerHealthView, description: 'Alive' })
  @ApiServiceUnavailableResponse({ type: ConsumerHealthView, description: 'Stopped or stalled' })
  async live(@Res({ passthrough: true }) res: FastifyReply): Promise<ConsumerHealthView> {
    const health = await this.consumer.health();
    if (health.stalled || !health.running) {
      res.status(503);
    }
    return health;
  }

  /**
   * Readiness: migrations ran, storage answers, the consumer runs, and it is a member of its group: joined, and a
   * heartbeat answered within GroupMembership's bound (under the session timeout). 503 while the broker is out of
   * reach or the group is not joined, 200 again once it is.
   */
  @Get('ready')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'ingestReadiness',
    summary: 'Readiness: migrations ran, storage answers, the consumer runs and is a member of its group',
  })
  @ApiOkResponse({ type: IngestReadinessView, description: 'Ready' })
  @ApiServiceUnavailableResponse({ type: IngestReadinessView, description: 'Not ready' })
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<IngestReadinessView> {
    const reason = !this.migrator.migrated
      ? 'migrations have not run'
      : ((await this.consumer.notReadyReason()) ?? (!(await this.ch.ping()) ? 'storage does not answer' : undefined));
    if (reason !== undefined) {
      res.status(503);
    }
    return reason === undefined ? { ready: true } : { ready: false, reason };
  }
}
