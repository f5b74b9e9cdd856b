import { Injectable } from '@nestjs/common';

/**
 * A counter per customer and instance, bumped whenever this process writes events or entities for it, so caches
 * of answers computed from them can tell they are stale at once. Writes by other processes are not seen here;
 * caches also expire by time for those.
 */
@Injectable()
export class DataVersions {
  private readonly versions = new Map<string, number>();

  bump(customer: string, instance: string): void {
    const key = `${customer}\u0000${instance}`;
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  get(customer: string, instance: string): number {
    return this.versions.get(`${customer}\u0000${instance}`) ?? 0;
  }
}
