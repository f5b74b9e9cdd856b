import { LANGUAGE_PATTERN } from '@app/contracts';

/** Most index names one instance declares. */
export const MAX_ALGOLIA_INDEXES = 100;
/** The longest index name (Algolia's own limit is 256 bytes). */
const MAX_INDEX_NAME = 256;

/**
 * What is wrong with an `algoliaIndexes` map as sent to `PUT /configuration`, naming the field, or undefined: an object
 * of at most MAX_ALGOLIA_INDEXES names (1 to 256 characters, no control characters, none an instance's name), each
 * `{}` or `{ "language": "<tag>" }`.
 */
export function algoliaIndexesProblem(value: unknown, instances: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'algoliaIndexes must be an object of index names, each { "language"?: "<tag>" }';
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_ALGOLIA_INDEXES) {
    return `algoliaIndexes holds at most ${MAX_ALGOLIA_INDEXES} index names`;
  }
  for (const [name, index] of entries) {
    // eslint-disable-next-line no-control-regex
    if (name.length === 0 || [...name].length > MAX_INDEX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
      return `algoliaIndexes: an index name must be 1 to ${MAX_INDEX_NAME} characters without control characters`;
    }
    if (instances.includes(name)) {
      return `algoliaIndexes.${name} is the name of an instance, which GET /2/... already reads as it is`;
    }
    if (typeof index !== 'object' || index === null || Array.isArray(index)) {
      return `algoliaIndexes.${name} must be an object: {} or { "language": "<tag>" }`;
    }
    const { language, ...rest } = index as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      return `algoliaIndexes.${name} has an unknown field: ${unknown[0]} (only language)`;
    }
    if (language !== undefined && (typeof language !== 'string' || !LANGUAGE_PATTERN.test(language))) {
      return `algoliaIndexes.${name}.language must be a language tag such as en or de-ch`;
    }
  }
  return undefined;
}
