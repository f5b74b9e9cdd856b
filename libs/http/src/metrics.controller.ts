import { Controller, Get, Header, Headers } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Public, refused } from '@app/auth';
import { AppConfig } from '@app/config';
import { ApiErrors } from '@app/errors';
import { MetricsService } from '@app/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

@ApiTags('Metrics')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /** Prometheus text format; no credentials (scrapers), unless METRICS_TOKEN asks for a bearer token. */
  @Public()
  @Get()
  @ApiOperation({
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'The text exposition format 0.0.4, for scrapers. Public unless the operator sets METRICS_TOKEN.',
  })
  @ApiHeader({ name: 'Authorization', required: false, description: 'With METRICS_TOKEN set: `Bearer <token>`' })
  @ApiOkResponse({ content: { 'text/plain': { schema: { type: 'string' } } }, description: 'The metrics' })
  @ApiErrors([401, 'METRICS_TOKEN is set and the request does not carry it as a bearer token'])
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(@Headers('authorization') authorization?: string): Promise<string> {
    const token = this.config.metricsToken;
    // Compared as digests of equal length, in constant time.
    if (token && !timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${token}`))) {
      throw refused('metricsToken');
    }
    return this.metrics.registry.metrics();
  }
}
