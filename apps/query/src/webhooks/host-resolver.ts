import { Injectable } from '@nestjs/common';
import * as dns from 'node:dns';

/** Name resolution for webhook connections (dns.lookup); one instance per app, so a test can answer for a host. */
@Injectable()
export class HostResolver {
  lookup(
    hostname: string,
    options: dns.LookupAllOptions,
    callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ): void {
    dns.lookup(hostname, options, callback);
  }
}
