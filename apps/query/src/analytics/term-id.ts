import { createHash } from 'node:crypto';
import { compositeKey } from '@app/contracts';

/** A stable id for (customer, instance, phrase): the same term keeps its id across requests and windows. */
export function termId(customer: string, instance: string, phrase: string): string {
  return createHash('sha256')
    .update(compositeKey(customer, instance, phrase))
    .digest('hex')
    .slice(0, 32);
}
