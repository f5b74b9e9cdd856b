import { BotDetector } from './bot-detector';
import { personalHash } from './event-fields';
import { parseFilter } from './search-dimensions';
import { validateSearchEvent, type ValidationContext } from './search-event';

const ctx: ValidationContext = {
  now: Date.parse('2026-11-21T12:00:00.000Z'),
  retentionDays: 400,
  bots: new BotDetector(),
  source: 'http',
  customer: 'demo',
  instance: 'live',
};
const search = { phrase: 'hat', language: 'en', hits: 0 };
const validate = (fields: Record<string, unknown>) => validateSearchEvent({ ...search, ...fields }, ctx, ctx);

describe('parseFilter', () => {
  it.each([
    ['brand:Apple', 'brand', ':', 'Apple'],
    ['price<=100', 'price', '<=', '100'],
    ['price>=1.5e2', 'price', '>=', '1.5e2'],
    ['price<100', 'price', '<', '100'],
    ['size!=-3', 'size', '!=', '-3'],
    ['rating=4', 'rating', '=', '4'],
    ['size:<10', 'size', ':', '<10'],
    ['  color :  Dark Blue ', 'color', ':', 'Dark Blue'],
    ['name:=cmd|calc, "quoted" 🎩', 'name', ':', '=cmd|calc, "quoted" 🎩'],
    ['url:a%20b', 'url', ':', 'a%20b'],
  ])('%p is %p %p %p', (input, attribute, operator, value) => {
    expect(parseFilter('filters[0]', input)).toEqual({ attribute, operator, value });
  });

  it.each([
    ['brand Apple', 'filters[0] has no operator'],
    ['brand!Apple', 'filters[0] has no operator'],
    [':Apple', "filters[0]'s attribute must be a string of 1 to 64 characters"],
    ['brand:', "filters[0]'s value must be a string of 1 to 200 characters"],
    [`${'a'.repeat(65)}:x`, "filters[0]'s attribute must be a string of 1 to 64 characters"],
    [`a:${'v'.repeat(201)}`, "filters[0]'s value must be a string of 1 to 200 characters"],
    ['price<=cheap', "filters[0]'s value must be a finite number with the operator <="],
    ['price<1e999', "filters[0]'s value must be a finite number with the operator <"],
    ['price>0x10', "filters[0]'s value must be a finite number with the operator >"],
    ['brand:\u0000', 'filters[0] contains a NUL character'],
    ['brand:\ud83c', 'filters[0] is not well-formed Unicode (a lone surrogate)'],
    [7, 'filters[0] must be a string'],
  ])('refuses %p: %p', (input, reason) => {
    expect(parseFilter('filters[0]', input)).toEqual(expect.stringContaining(reason));
  });

  it('counts a value of 200 emoji as 200 characters', () => {
    expect(parseFilter('f', `a:${'🎩'.repeat(200)}`)).toMatchObject({ value: '🎩'.repeat(200) });
  });
});

describe('validateSearchEvent with dimensions', () => {
  it('stores filters, the user token as a hash, the country upper case and tags sorted without repeats', () => {
    const r = validate({ filters: ['brand:Apple', 'price<=100'], userToken: 'user-1', country: 'de', tags: ['mobile', 'bf', 'mobile'] });
    expect(r).toMatchObject({
      ok: true,
      row: {
        filter_attributes: ['brand', 'price'],
        filter_operators: [':', '<='],
        filter_values: ['Apple', '100'],
        user_hash: personalHash('demo', 'user-1'),
        country: 'DE',
        tags: ['bf', 'mobile'],
      },
    });
    expect(JSON.stringify(r)).not.toContain('user-1');
  });

  it('stores none when none is sent', () => {
    expect(validate({})).toMatchObject({
      ok: true,
      row: { filter_attributes: [], filter_operators: [], filter_values: [], user_hash: '', country: '', tags: [] },
    });
  });

  it.each([
    [{ filters: 'brand:Apple' }, 'filters must be an array of at most 20 strings'],
    [{ filters: Array.from({ length: 21 }, (_, i) => `a:${i}`) }, 'filters must be an array of at most 20 strings'],
    [{ filters: ['brand:Apple', 'x:1', 'price<=cheap'] }, "filters[2]'s value must be a finite number"],
    [{ userToken: '' }, 'userToken must be a string of 1 to 129 characters'],
    [{ userToken: 'u'.repeat(130) }, 'userToken must be a string of 1 to 129 characters'],
    [{ userToken: 5 }, 'userToken must be a string of 1 to 129 characters'],
    [{ country: 'DEU' }, 'country must be two letters'],
    [{ country: 'd1' }, 'country must be two letters'],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags must be an array of at most 20 strings'],
    [{ tags: ['ok', 't'.repeat(101)] }, 'tags[1] must be a string of 1 to 100 characters'],
    [{ tags: ['a AND b'] }, 'tags[0] contains "AND" or "OR" between spaces'],
    [{ tags: ['x', 'a OR b'] }, 'tags[1] contains "AND" or "OR" between spaces'],
    [{ tags: ['\u0000'] }, 'tags[0] contains a NUL character'],
  ])('rejects %p naming the field', (fields, reason) => {
    const r = validate(fields);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toContain(reason);
  });

  it('accepts tags with and, or in lower case, or without the spaces, and UK as sent', () => {
    expect(validate({ tags: ['rock and roll', 'AND', 'campaign:bf'], country: 'UK' })).toMatchObject({
      ok: true,
      row: { tags: ['AND', 'campaign:bf', 'rock and roll'], country: 'UK' },
    });
  });
});
