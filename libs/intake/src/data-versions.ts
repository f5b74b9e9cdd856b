import { Injectable } from '@nestjs/common';
import { compositeKey } from '@app/contracts';

/**
 * A counter per customer and instance, bumped whenever this process writes events or entities for it, so caches
 * of answers computed from them can tell they are stale at once. Writes by other processes are not seen here;
 * caches also expire by time for those.
 */
@Injectable()
export class DataVersions {
  private readonly versions = new Map<string, number>();

  bump(customer: string, instance: string): void {
    const key = compositeKey(customer, instance);
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  get(customer: string, instance: string): number {
    return this.versions.get(compositeKey(customer, instance)) ?? 0;
  }
}
