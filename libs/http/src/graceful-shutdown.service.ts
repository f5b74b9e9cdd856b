import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * Nest closes the HTTP server only after the shutdown hooks, so requests still in flight would meet a closed
 * storage client. This stops accepting first and lets running requests finish (idle keep-alive connections are
 * closed at once; after 10 s every connection is).
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) {
      return;
    }
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    await closed;
    clearTimeout(force);
  }
}
