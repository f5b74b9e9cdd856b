import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@app/auth';
import { DomainError } from '@app/errors';
import { loadDashboardAssets } from './dashboard-assets';

/**
 * GET /dashboard: the browser dashboard (docs/decisions/0015-the-dashboard.md), static files built by `npm run build`. Public: the
 * page holds no data; it asks the API with the credentials the user signs in with. Not part of the API document.
 * Its Content-Security-Policy and other page headers are set for every answer under /dashboard (libs/http
 * security-headers.ts, DASHBOARD_CSP).
 */
@ApiExcludeController()
@Controller('dashboard')
export class DashboardController {
  private readonly assets = loadDashboardAssets();

  @Get()
  @Public()
  index(@Res() res: FastifyReply): void {
    this.send('index.html', res);
  }

  @Get(':file')
  @Public()
  file(@Param('file') file: string, @Res() res: FastifyReply): void {
    this.send(file || 'index.html', res);
  }

  private send(name: string, res: FastifyReply): void {
    const asset = this.assets.get(name);
    if (!asset) {
      throw new DomainError(
        'not-found',
        this.assets.size === 0 ? 'The dashboard is not built (npm run build)' : `No dashboard file ${name}`,
      );
    }
    void res.header('Content-Type', asset.type).header('Cache-Control', asset.cacheControl).send(asset.body);
  }
}
