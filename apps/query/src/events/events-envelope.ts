import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { MAX_EVENTS_PER_REQUEST } from '@app/contracts';

/** Keys removed from every object of a body before it is read, at any depth, as the validation pipe removes them. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** At most this many problems are named in a 400; a last line says that more were left out. */
export const MAX_ENVELOPE_PROBLEMS = 100;

/** Removes PROTO_KEYS from `value` and every object or array in it (without recursion: any depth is safe). */
function stripProtoKeys(value: unknown): void {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) {
      continue;
    }
    if (!Array.isArray(next)) {
      for (const key of PROTO_KEYS) {
        if (Object.hasOwn(next, key)) {
          delete (next as Record<string, unknown>)[key];
        }
      }
    }
    for (const inner of Object.values(next)) {
      if (typeof inner === 'object' && inner !== null) {
        pending.push(inner);
      }
    }
  }
}

/**
 * The `events` of a POST /events body `{ events: [...] }`, checked by the validation pipe's rules (an array of at most
 * MAX_EVENTS_PER_REQUEST items, no other property; prototype keys removed everywhere), answering 400 with its body
 * shape: each rule the body breaks, once (docs/decisions/0047-the-lean-path-of-post-events.md). The hot
 * path of the intake: the pipe's class-transformer copy and class-validator run were about a tenth of a single-event
 * request. Each item is validated by the intake itself.
 */
export function eventsOfEnvelope(body: unknown): unknown[] {
  stripProtoKeys(body);
  const problems: string[] = [];
  const envelope = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  for (const key of Object.keys(envelope)) {
    if (problems.length > MAX_ENVELOPE_PROBLEMS) {
      break;
    }
    if (key !== 'events') {
      problems.push(`property ${key} should not exist`);
    }
  }
  const events = envelope.events;
  if (!Array.isArray(events)) {
    problems.push('events must be an array');
  } else if (events.length > MAX_EVENTS_PER_REQUEST) {
    problems.push(`events must contain no more than ${MAX_EVENTS_PER_REQUEST} elements`);
  }
  if (problems.length > MAX_ENVELOPE_PROBLEMS) {
    throw new BadRequestException([...problems.slice(0, MAX_ENVELOPE_PROBLEMS), 'Further validation errors were omitted']);
  }
  if (problems.length > 0) {
    throw new BadRequestException(problems);
  }
  return events as unknown[];
}

/** The checked `events` of the request's body (eventsOfEnvelope); a parameter the validation pipe leaves alone. */
export const EventsEnvelope = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown[] =>
  eventsOfEnvelope(ctx.switchToHttp().getRequest<{ body?: unknown }>().body),
);
