import { Controller, Get, HttpCode, Optional, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@app/auth';
import { ClickHouseService, MigratorService } from '@app/clickhouse';
import { ConsumerReadiness } from '@app/kafka';

import { HealthView, LiveView, ReadinessView } from './health.view';

/** Probes: no credentials (load balancers and orchestrators call them). */
@Public()
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly migrator: MigratorService,
    /** Present where this process also consumes Kafka (the composition app with KAFKA_BROKERS). */
    @Optional() private readonly consumer?: ConsumerReadiness,
  ) {}

  /** 200 when storage answers, 503 otherwise. */
  @Get()
  @HttpCode(200)
  @ApiOperation({ operationId: 'health', summary: 'Health: does storage answer' })
  @ApiOkResponse({ type: HealthView, description: 'Storage answers' })
  @ApiServiceUnavailableResponse({ type: HealthView, description: 'Storage does not answer' })
  async health(@Res({ passthrough: true }) res: FastifyReply): Promise<HealthView> {
    const up = await this.ch.ping();
    if (!up) {
      res.status(503);
    }
    return up ? { status: 'ok', storage: 'up' } : { status: 'unavailable', storage: 'down' };
  }

  /** Liveness: the process serves HTTP. */
  @Get('live')
  @ApiOperation({ operationId: 'liveness', summary: 'Liveness: the process serves HTTP' })
  @ApiOkResponse({ type: LiveView, description: 'Alive' })
  live(): LiveView {
    return { status: 'ok' };
  }

  /**
   * Readiness: migrations ran and storage answers; where the process also consumes Kafka, its consumer runs and is a
   * member of its group (as the ingest app's readiness).
   */
  @Get('ready')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'readiness',
    summary: 'Readiness: migrations ran, storage answers and, where the process consumes Kafka, its consumer is a group member',
  })
  @ApiOkResponse({ type: ReadinessView, description: 'Ready' })
  @ApiServiceUnavailableResponse({ type: ReadinessView, description: 'Not ready' })
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<ReadinessView> {
    const up = await this.ch.ping();
    const migrated = this.migrator.migrated;
    const reason = !up ? 'storage does not answer' : !migrated ? 'migrations have not run' : await this.consumer?.notReadyReason();
    if (reason !== undefined) {
      res.status(503);
    }
    const view: ReadinessView = { status: reason === undefined ? 'ok' : 'unavailable', storage: up ? 'up' : 'down', migrated };
    return reason === undefined ? view : { ...view, reason };
  }
}
