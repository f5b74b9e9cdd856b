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

export const PRESETS = { importer: IMPORTER_PRESET, collector: COLLECTOR_PRESET } as const;
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
