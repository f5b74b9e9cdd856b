import { AppError } from '@app/errors';
import { assertPreconditions, checkSyntax, etagOf, type Preconditions } from './preconditions';

const CURRENT = etagOf('1764146400123456789');

/** The error code of checking `p` against `current` (undefined: they hold). */
function outcome(p: Preconditions, current: string | undefined): string | undefined {
  try {
    assertPreconditions(p, current, 'synonym x');
    return undefined;
  } catch (err) {
    return (err as AppError).code;
  }
}

describe('If-Match / If-None-Match on an entity (RFC 9110, 13.1)', () => {
  it.each<[Preconditions, string | undefined, string | undefined]>([
    [{ ifMatch: CURRENT }, CURRENT, undefined],
    [{ ifMatch: `"1", ${CURRENT}` }, CURRENT, undefined],
    [{ ifMatch: '*' }, CURRENT, undefined],
    [{ ifMatch: '"1"' }, CURRENT, 'precondition-failed'],
    // If-Match compares strongly: a weak tag never matches.
    [{ ifMatch: `W/${CURRENT}` }, CURRENT, 'precondition-failed'],
    [{ ifMatch: CURRENT }, undefined, 'precondition-failed'],
    [{ ifMatch: '*' }, undefined, 'precondition-failed'],
    [{ ifNoneMatch: '*' }, undefined, undefined],
    [{ ifNoneMatch: '*' }, CURRENT, 'precondition-failed'],
    // If-None-Match compares weakly.
    [{ ifNoneMatch: `W/${CURRENT}` }, CURRENT, 'precondition-failed'],
    [{ ifNoneMatch: '"1"' }, CURRENT, undefined],
  ])('%j against %s: %s', (p, current, expected) => {
    expect(outcome(p, current)).toBe(expected);
  });

  it.each(['', 'abc', '"a"b', '1764146400123456789', '"a", b', ','])('refuses a malformed If-Match %j with 400', (value) => {
    expect(() => checkSyntax({ ifMatch: value })).toThrow('If-Match must be * or a list of quoted entity tags');
    expect(outcome({ ifMatch: value }, CURRENT)).toBe('invalid');
  });

  it('says that nothing was written and what to do', () => {
    expect(() => assertPreconditions({ ifMatch: '"1"' }, CURRENT, 'synonym x')).toThrow(
      `The synonym x was changed by another request since it was read (its ETag is now ${CURRENT}); nothing was written. ` +
        'Read it again and merge',
    );
  });
});
