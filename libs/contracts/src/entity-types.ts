/**
 * The entity types clients know (the webhook's `type` values). A contract every feature may use: entities store them,
 * search terms name the entities that handle a phrase, the webhook sends them.
 */
export const ENTITY_TYPES = [
  'landingpage',
  'component',
  'menu',
  'stream',
  'filter',
  'banner',
  'category',
  'synonym',
  'antonym',
  'recommendation',
  'productfeed',
] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}

/** Deleting a page sends `delete`, any other type `remove` (the webhook's `action` values). */
export function removeAction(type: EntityType): 'delete' | 'remove' {
  return type === 'landingpage' ? 'delete' : 'remove';
}
