import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import * as http from 'node:http';

/**
 * Node's default 16 KB header limit covers the request line too; DELETE /notifications with 1,000 ids[]
 * needs more. (forceCloseConnections is not used by this service.)
 */
export class ServiceExpressAdapter extends ExpressAdapter {
  static readonly MAX_HEADER_BYTES = 128 * 1024;

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    this.httpServer = http.createServer({ maxHeaderSize: ServiceExpressAdapter.MAX_HEADER_BYTES }, this.getInstance());
  }
}
