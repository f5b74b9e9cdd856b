import { DEFAULT_BODY_LIMIT, LARGE_BODY_LIMIT, MAX_JSON_DEPTH, bodyLimitOf, checkContentType, jsonDepth } from './body-parser';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('jsonDepth', () => {
  it('returns 0 for empty text and for scalars', () => {
    for (const text of ['', '1', 'null', '"text"', '  true  ']) {
      expect(jsonDepth(text)).toBe(0);
    }
  });

  it('returns the deepest nesting of arrays and objects, not their count', () => {
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('[[], [], {}]')).toBe(2);
    expect(jsonDepth('{"a":[1,{"b":2}],"c":{}}')).toBe(3);
  });

  it('does not count brackets inside strings', () => {
    expect(jsonDepth('"[[[[{{{{"')).toBe(0);
    expect(jsonDepth('{"a":"]]]]}}}}","b":[1]}')).toBe(2);
    expect(jsonDepth('["{", "[", "[[[["]')).toBe(1);
  });

  it('stays inside a string across an escaped quote', () => {
    // The string holds: \" [[[ ; a scanner that ended the string at \" would count three more levels.
    expect(jsonDepth(String.raw`["\"[[[", 1]`)).toBe(1);
    expect(jsonDepth(String.raw`{"k\"[[": "v\"]]]]"}`)).toBe(1);
  });

  it('ends a string at a quote that follows an escaped backslash', () => {
    // ["\\", [[1]]]: the string is one backslash, then the array goes three levels deep.
    expect(jsonDepth(String.raw`["\\", [[1]]]`)).toBe(3);
    expect(jsonDepth(String.raw`["\\\"[", [1]]`)).toBe(2);
  });

  it('does not count brackets after a \\u escape inside a string', () => {
    expect(jsonDepth(String.raw`["\u005b[[", {}]`)).toBe(2);
  });

  it('measures depth exactly at the MAX_JSON_DEPTH boundary, which the parser still accepts', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonDepth(nested(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepth(nested(MAX_JSON_DEPTH)) > MAX_JSON_DEPTH).toBe(false);
    expect(jsonDepth(nested(MAX_JSON_DEPTH + 1)) > MAX_JSON_DEPTH).toBe(true);
    expect(jsonDepth(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe(MAX_JSON_DEPTH + 1);
  });

  it('scans text far deeper than a recursive walk could go without a stack overflow', () => {
    expect(jsonDepth('['.repeat(200_000))).toBe(200_000);
  });

  it('measures unterminated text as far as it goes (JSON.parse refuses it afterwards)', () => {
    expect(jsonDepth('[[[')).toBe(3);
    expect(jsonDepth('["abc')).toBe(1);
    expect(jsonDepth('["abc\\')).toBe(1);
  });
});

describe('bodyLimitOf', () => {
  it('gives the bulk intake routes POST /events and PUT /documents 10 MB', () => {
    expect(LARGE_BODY_LIMIT).toBe(10 * 1024 * 1024);
    expect(bodyLimitOf('POST', '/events')).toBe(LARGE_BODY_LIMIT);
    expect(bodyLimitOf('PUT', '/documents')).toBe(LARGE_BODY_LIMIT);
  });

  it('gives every other route 1 MB, including other methods on the bulk URLs', () => {
    expect(DEFAULT_BODY_LIMIT).toBe(1024 * 1024);
    expect(bodyLimitOf('PUT', '/events')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf('POST', '/documents')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf('PUT', '/configuration')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf('PUT', '/entities/:type')).toBe(DEFAULT_BODY_LIMIT);
  });

  it('matches the route pattern exactly (no prefix, suffix or query string match)', () => {
    expect(bodyLimitOf('POST', '/events/')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf('POST', '/events?x=1')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf('POST', '/events-archive')).toBe(DEFAULT_BODY_LIMIT);
  });

  it('gives 1 MB to a request without a matched route (url undefined)', () => {
    expect(bodyLimitOf('POST', undefined)).toBe(DEFAULT_BODY_LIMIT);
  });
});

describe('checkContentType', () => {
  const body = { 'content-length': '2' };
  it('takes JSON, and text/plain only where it is allowed (POST /1/events: sendBeacon)', () => {
    expect(() => checkContentType({ ...body, 'content-type': 'application/json; charset=utf-8' })).not.toThrow();
    expect(() => checkContentType({ ...body, 'content-type': 'text/plain;charset=UTF-8' })).toThrow(
      'Content-Type must be application/json',
    );
    expect(() => checkContentType({ ...body, 'content-type': 'text/plain;charset=UTF-8' }, true)).not.toThrow();
    expect(() => checkContentType({ ...body, 'content-type': 'text/html' }, true)).toThrow(
      'Content-Type must be application/json or text/plain',
    );
    expect(() => checkContentType({ 'content-type': 'text/html' })).not.toThrow();
  });
});
