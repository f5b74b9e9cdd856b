import { BadRequestException } from '@nestjs/common';
import { eventsOfEnvelope, MAX_ENVELOPE_PROBLEMS } from './events-envelope';

/** The 400 messages a body gets, or none when it yields its events. */
function problemsOf(body: unknown): string[] {
  try {
    eventsOfEnvelope(body);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequestException);
    return ((err as BadRequestException).getResponse() as { message: string[] }).message;
  }
}

describe('eventsOfEnvelope', () => {
  it('yields the events of a well-formed body, items unchecked (the intake checks each)', () => {
    const events = [{ phrase: 'a' }, 1, null];
    expect(eventsOfEnvelope({ events })).toBe(events);
  });

  it('removes prototype keys at every depth, as the validation pipe does, so an item keeps its other fields', () => {
    const body = JSON.parse(
      '{"events":[{"phrase":"a","constructor":1,"__proto__":{"x":1}},{"nested":{"prototype":2,"b":[{"__proto__":3,"c":4}]}}],' +
        '"__proto__":{"a":1},"constructor":{}}',
    ) as unknown;
    expect(eventsOfEnvelope(body)).toEqual([{ phrase: 'a' }, { nested: { b: [{ c: 4 }] } }]);
  });

  it.each([[{}], [{ events: 'x' }], [{ events: {} }], [{ events: null }], [[]], [[1]], ['x'], [null], [1], [true]])(
    'refuses %p with the one rule it breaks',
    (body) => {
      expect(problemsOf(body)).toEqual(['events must be an array']);
    },
  );

  it('names every property besides events, and a missing array with them', () => {
    expect(problemsOf({ events: [], extra: 1, x: 2 })).toEqual(['property extra should not exist', 'property x should not exist']);
    expect(problemsOf({ extra: 1 })).toEqual(['property extra should not exist', 'events must be an array']);
  });

  it(`names at most ${MAX_ENVELOPE_PROBLEMS} problems, then says more were left out`, () => {
    const body = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, 1]));
    const problems = problemsOf(body);
    expect(problems).toHaveLength(MAX_ENVELOPE_PROBLEMS + 1);
    expect(problems[0]).toBe('property k0 should not exist');
    expect(problems[MAX_ENVELOPE_PROBLEMS]).toBe('Further validation errors were omitted');
  });

  it('refuses more than 10,000 events', () => {
    expect(problemsOf({ events: new Array(10_001).fill({}) })).toEqual(['events must contain no more than 10000 elements']);
    expect(eventsOfEnvelope({ events: new Array(10_000).fill({}) })).toHaveLength(10_000);
  });
});
