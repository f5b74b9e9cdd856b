import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MetricsService } from '@app/metrics';

type Stop = (labels: { method: string; route: string; status: string }) => number;

/** Times every request, labelled by the matched route pattern (never the raw path: ids would explode series). */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  const started = new WeakMap<FastifyRequest, Stop>();
  fastify.addHook('onRequest', (req, _reply, done) => {
    started.set(req, metrics.httpSeconds.startTimer());
    done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    started.get(req)?.({ method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) });
    done();
  });
}
