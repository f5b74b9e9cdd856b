import { Injectable } from '@nestjs/common';

/** The alerts' time: which hours are complete. Its own provider so that tests can set it (test/alerts.e2e.spec.ts). */
@Injectable()
export class AlertClock {
  now(): number {
    return Date.now();
  }
}
