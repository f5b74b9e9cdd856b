import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service';

/** Times every request, labelled by the matched route pattern (never the raw path: ids would explode series). */
export function httpMetrics(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = metrics.httpSeconds.startTimer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      stop({ method: req.method, route: route ? `${req.baseUrl}${route}` : 'unmatched', status: String(res.statusCode) });
    });
    next();
  };
}
