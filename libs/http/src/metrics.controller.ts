import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '@app/auth';
import { MetricsService } from '@app/metrics';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** Prometheus text format; no credentials (scrapers). */
  @Public()
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
