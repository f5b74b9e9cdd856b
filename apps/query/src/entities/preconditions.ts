import { DomainError } from '@app/errors';

/**
 * Conditional saves of one entity (RFC 9110, section 13.1): `If-Match` (strong comparison) and `If-None-Match`
 * (weak comparison) against the entity's ETag, the version of its latest saved state, strong and quoted.
 */
export interface Preconditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** The ETag of an entity whose latest save row has this version. */
export const etagOf = (version: string): string => `"${version}"`;

/** Whether the request is conditional at all. */
export const isConditional = (p: Preconditions): boolean => p.ifMatch !== undefined || p.ifNoneMatch !== undefined;

interface EntityTag {
  weak: boolean;
  /** With its quotes, as an ETag header carries it. */
  opaque: string;
}

/** One entity-tag: [W/]"<characters other than quotes and controls>". */
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/** `*`, or the listed entity tags; anything else is 400 naming the header. */
function parse(header: 'If-Match' | 'If-None-Match', value: string): '*' | EntityTag[] {
  const trimmed = value.trim();
  if (trimmed === '*') {
    return '*';
  }
  const tags = trimmed
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => ENTITY_TAG.exec(part));
  if (tags.length === 0 || tags.some((t) => t === null)) {
    throw new DomainError('invalid', `${header} must be * or a list of quoted entity tags, e.g. ${header}: "1764146400000000000"`);
  }
  return tags.map((t) => ({ weak: t![1] !== undefined, opaque: t![2] }));
}

/** Rejects malformed headers before anything is read (400). */
export function checkSyntax(p: Preconditions): void {
  if (p.ifMatch !== undefined) {
    parse('If-Match', p.ifMatch);
  }
  if (p.ifNoneMatch !== undefined) {
    parse('If-None-Match', p.ifNoneMatch);
  }
}

/**
 * 412 when the preconditions do not hold for the entity's current ETag (undefined: no current entity, never saved
 * or deleted). If-Match: `*` needs an entity, a list needs one strong tag equal to its ETag (weak tags never match).
 * If-None-Match: `*` needs no entity, a list needs no tag equal to its ETag (weakly). `what` names the entity.
 */
export function assertPreconditions(p: Preconditions, current: string | undefined, what: string): void {
  if (p.ifMatch !== undefined) {
    const tags = parse('If-Match', p.ifMatch);
    if (current === undefined) {
      throw new DomainError('precondition-failed', `If-Match: the ${what} does not exist (any more); nothing was written`);
    }
    if (tags !== '*' && !tags.some((t) => !t.weak && t.opaque === current)) {
      throw changed(what, current);
    }
  }
  if (p.ifNoneMatch !== undefined && current !== undefined) {
    const tags = parse('If-None-Match', p.ifNoneMatch);
    if (tags === '*' || tags.some((t) => t.opaque === current)) {
      throw new DomainError('precondition-failed', `If-None-Match: the ${what} exists (ETag ${current}); nothing was written`);
    }
  }
}

/** The 412 of a save whose ETag is stale, or that another conditional save of the same state won. */
export function changed(what: string, current?: string): DomainError {
  const now = current === undefined ? '' : ` (its ETag is now ${current})`;
  return new DomainError(
    'precondition-failed',
    `The ${what} was changed by another request since it was read${now}; nothing was written. Read it again and merge`,
  );
}
