import { NAME_PATTERN } from './names';

export interface TenantContext {
  source: 'http' | 'kafka';
  /** HTTP: the authenticated customer and instance. */
  customer?: string;
  instance?: string;
}

/**
 * The customer and instance an item belongs to. Over HTTP they come from the authenticated request (an item may
 * repeat them but not name others); on Kafka the item must carry both. Returns the reason when it cannot.
 */
export function itemTenant(item: Record<string, unknown>, ctx: TenantContext): { customer: string; instance: string } | string {
  if (ctx.source === 'http') {
    if (item.customer !== undefined && item.customer !== ctx.customer) {
      return 'customer does not match the authenticated customer';
    }
    if (item.instance !== undefined && item.instance !== ctx.instance) {
      return 'instance does not match the authenticated instance';
    }
    return { customer: ctx.customer!, instance: ctx.instance! };
  }
  if (typeof item.customer !== 'string' || !NAME_PATTERN.test(item.customer)) {
    return 'customer is required (a lower-case name)';
  }
  if (typeof item.instance !== 'string' || !NAME_PATTERN.test(item.instance)) {
    return 'instance is required (a lower-case name)';
  }
  return { customer: item.customer, instance: item.instance };
}
