/** Permission names, written once in colon notation; a JWT carries them in dot notation. */
export const PERMISSIONS = [
  'search:read',
  'search:write',
  'persistence:write',
  'ranking-mix:read',
  'notifications:read',
  'notifications:write',
  'configuration:read',
  'configuration:write',
  'secret:read',
  'secret:write',
  'entities:read',
  'entities:write',
  'events:collect',
  'events:delete',
  'annotations:read',
  'annotations:write',
  'analytics:read',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** The Importer preset: what the shop connector needs. */
export const IMPORTER_PRESET: readonly Permission[] = ['search:write', 'persistence:write'];

/**
 * The Collector preset: `POST /1/events` from shoppers' browsers and nothing else (a collector key's secret is public
 * by design). A key holds events:collect only through this preset, and then nothing else.
 */
export const COLLECTOR_PERMISSION: Permission = 'events:collect';
export const COLLECTOR_PRESET: readonly Permission[] = [COLLECTOR_PERMISSION];

/**
 * The Analytics preset: Algolia's Analytics API (`GET /2/...`) read with the key's secret as it is, in
 * `X-Algolia-API-Key`, as Algolia's analytics clients send it. Such a key authenticates there and nothing else, and never
 * signs HMAC; Basic, a JWT or an HMAC key holding analytics:read read the same routes.
 */
export const ANALYTICS_PERMISSION: Permission = 'analytics:read';
export const ANALYTICS_PRESET: readonly Permission[] = [ANALYTICS_PERMISSION];

export const PRESETS = { importer: IMPORTER_PRESET, collector: COLLECTOR_PRESET, analytics: ANALYTICS_PRESET } as const;
export type PresetName = keyof typeof PRESETS;

const KNOWN = new Set<string>(PERMISSIONS);

export function isPermission(name: string): name is Permission {
  return KNOWN.has(name);
}

/** `search.read` -> `search:read`; only the first dot separates area and action. */
export function fromDotNotation(name: string): string {
  const i = name.indexOf('.');
  return i < 0 ? name : `${name.slice(0, i)}:${name.slice(i + 1)}`;
}
