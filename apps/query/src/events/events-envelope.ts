import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { MAX_EVENTS_PER_REQUEST } from '@app/contracts';

/** Keys a JSON body may carry that are never properties of the envelope (the validation pipe strips them too). */
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The `events` of a POST /events body `{ events: [...] }`, checked as the validation pipe checks a DTO (an array of at
 * most MAX_EVENTS_PER_REQUEST items, no other property), with the same 400 body. The hot path of the intake: a
 * single-event request is the common case, and the pipe's class-transformer copy and class-validator run cost about a
 * tenth of such a request (docs/benchmarks.md, "Intake"). Each item is validated by the intake itself.
 */
export function eventsOfEnvelope(body: unknown): unknown[] {
  const problems: string[] = [];
  const envelope = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  for (const key of Object.keys(envelope)) {
    if (key !== 'events' && !PROTO_KEYS.has(key)) {
      problems.push(`property ${key} should not exist`);
    }
  }
  const events = envelope.events;
  if (!Array.isArray(events)) {
    problems.push('events must be an array');
  } else if (events.length > MAX_EVENTS_PER_REQUEST) {
    problems.push(`events must contain no more than ${MAX_EVENTS_PER_REQUEST} elements`);
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
