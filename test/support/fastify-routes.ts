import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * `METHOD /pattern` of every route a Fastify app serves (HEAD left out), sorted, read from Fastify's own route tree
 * (`printRoutes`): each line is a node, indented 4 characters per level, holding the path piece that follows its
 * parent's and, when routes end there, their methods in parentheses.
 */
export function fastifyRoutes(app: INestApplication): string[] {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const tree = fastify.printRoutes({ commonPrefix: false });
  const pathAt: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const node = /^((?:[│ ] {3})*)[└├]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!node) {
      continue;
    }
    const depth = node[1].length / 4;
    pathAt[depth] = (depth > 0 ? pathAt[depth - 1] : '') + node[2];
    const methods = node[3]?.split(', ').filter((m) => m !== 'HEAD') ?? [];
    routes.push(...methods.map((m) => `${m} ${pathAt[depth]}`));
  }
  return routes.sort();
}
