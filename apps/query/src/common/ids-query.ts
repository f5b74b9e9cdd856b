import { DomainError } from '@app/errors';

export const MAX_IDS = 1000;

/**
 * `ids[]=a&ids[]=b` as parsed by qs. Anything but an array of strings (`ids=x`, no ids, `ids[key]=x`) is a 400,
 * before anything is deleted.
 */
export function idsFromQuery(query: Record<string, unknown>): string[] {
  const ids = query.ids;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
    throw new DomainError('invalid', 'ids must be an array, passed as ids[]=<id>&ids[]=<id>');
  }
  if (ids.length > MAX_IDS) {
    throw new DomainError('invalid', `ids may name at most ${MAX_IDS} ids`);
  }
  return [...new Set(ids)];
}
