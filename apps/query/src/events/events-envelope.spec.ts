import { BadRequestException } from '@nestjs/common';
import { eventsOfEnvelope } from './events-envelope';

/** The 400 messages a body gets, or the events it yields. */
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
    expect(eventsOfEnvelope(JSON.parse('{"events":[],"__proto__":{"a":1},"constructor":{}}'))).toEqual([]);
  });

  it.each([[{}], [{ events: 'x' }], [{ events: {} }], [{ events: null }], [[]], ['x'], [null], [1], [true]])(
    'refuses %p with the one rule it breaks',
    (body) => {
      expect(problemsOf(body)).toEqual(['events must be an array']);
    },
  );

  it('names every property besides events, and a missing array with them', () => {
    expect(problemsOf({ events: [], extra: 1, x: 2 })).toEqual(['property extra should not exist', 'property x should not exist']);
    expect(problemsOf({ extra: 1 })).toEqual(['property extra should not exist', 'events must be an array']);
  });

  it('refuses more than 10,000 events', () => {
    expect(problemsOf({ events: new Array(10_001).fill({}) })).toEqual(['events must contain no more than 10000 elements']);
    expect(eventsOfEnvelope({ events: new Array(10_000).fill({}) })).toHaveLength(10_000);
  });
});
