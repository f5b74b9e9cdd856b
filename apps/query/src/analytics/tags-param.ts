import { DomainError } from '@app/errors';
import { MAX_TAG_LENGTH, TAG_JOINERS, lengthProblem } from '@app/contracts';

/** The `tags` parameter read: the tags a search must carry, all of them (`and`) or one of them (`or`). */
export interface TagsFilter {
  match: 'and' | 'or';
  tags: string[];
}

/**
 * `tags` as Algolia's `tags` parameter is written (docs/architecture.md, "Filters, users, countries and tags"): one
 * tag, or tags joined by ` AND ` or by ` OR ` (upper case; mixing both is a 400); each tag is percent-decoded once.
 */
export function parseTags(value: string | undefined): TagsFilter | undefined {
  if (value === undefined) {
    return undefined;
  }
  const [and, or] = TAG_JOINERS;
  if (value.includes(and) && value.includes(or)) {
    throw new DomainError('invalid', 'tags must join tags with AND or with OR, not both');
  }
  const match = value.includes(or) ? 'or' : 'and';
  const tags = value.split(match === 'or' ? or : and).map((tag) => {
    try {
      return decodeURIComponent(tag);
    } catch {
      throw new DomainError('invalid', 'tags holds a malformed percent-encoding');
    }
  });
  // As the intake counts a tag's length: in characters (code points).
  if (tags.some((tag) => lengthProblem('tag', tag, MAX_TAG_LENGTH))) {
    throw new DomainError('invalid', `tags must hold tags of 1 to ${MAX_TAG_LENGTH} characters, joined by AND or OR`);
  }
  return { match, tags };
}

/** `tags` of a request that may ask for the engagement figures too, which are not kept per tag: both are a 400. */
export function engagementTags(value: string | undefined, engagement: boolean): TagsFilter | undefined {
  if (value !== undefined && engagement) {
    throw new DomainError(
      'invalid',
      'tags cannot be combined with engagement=true or a sort by the engagement figures (they are not kept per tag)',
    );
  }
  return parseTags(value);
}

/** The condition on a rollup's `tags` (the search's tag set) for a filter, its parameter added to `params`. */
export function tagsSql(filter: TagsFilter | undefined, params: Record<string, unknown>): string {
  if (filter === undefined) {
    return '1';
  }
  params.tags_wanted = filter.tags;
  return `${filter.match === 'and' ? 'hasAll' : 'hasAny'}(tags, {tags_wanted:Array(String)})`;
}

/**
 * The condition on the rows of search_phrase_tags_hourly (its `tag` rows: one per tag of a search, `value` the tag, `tags` the
 * search's whole set) that keeps one row of each search the filter matches: that of the first of its tags wanted.
 */
export function tagRowsSql(filter: TagsFilter, params: Record<string, unknown>): string {
  const matches = tagsSql(filter, params);
  return `dimension = 'tag' AND value IN {tags_wanted:Array(String)} AND value = arrayFirst(t -> has({tags_wanted:Array(String)}, t), tags)
    AND ${matches}`;
}
