import { randomUUID } from 'node:crypto';
import type { BotDetector } from './bot-detector';
import { chDateTime, chDateTimeOften } from './ch-time';
import { eventObject, personalHash, sessionTextAndTime, tenantAndId } from './event-fields';
import type { EventSource, ItemOrigin } from './item-origin';
import { LANGUAGE_PATTERN } from './names';
import { normalisePhrase } from './normalise-phrase';
import { searchDimensions, type SearchDimensions } from './search-dimensions';
import { echoedName } from './text';

/**
 * A search event as producers send it (docs/architecture.md, "The pipeline"). Over HTTP customer and instance come from the
 * authenticated request; on Kafka both are required.
 */
export interface SearchEvent {
  id?: string;
  customer?: string;
  instance?: string;
  ts?: string | number;
  phrase: string;
  language: string;
  hits: number;
  userAgent?: string;
  bot?: boolean;
  sessionId?: string;
  /** Facet and numeric filters of the search, e.g. `brand:Apple`, `price<=100` (search-dimensions.ts). */
  filters?: string[];
  userToken?: string;
  country?: string;
  tags?: string[];
}

/**
 * A row of `search_events`. The user agent is not stored; a session id and a user token only as a hash. The
 * dimensions are unset in rows built elsewhere (benchmarks): the table's defaults, none.
 */
export interface SearchEventRow extends Partial<SearchDimensions> {
  event_id: string;
  customer: string;
  instance: string;
  ts: string;
  phrase: string;
  raw_phrase: string;
  language: string;
  hits: number;
  bot: boolean;
  session_hash: string;
  source: EventSource;
  topic: string;
  partition: number;
  offset: number;
  received_at: string;
  /** POST /events on the embedded transport: the request's retry token (docs/decisions/0039-one-insert-for-many-requests.md); else ''. */
  intake_token?: string;
  /** The client sent the event's `id` (a click can refer to it); false when the intake generated it. Unset: false. */
  id_sent?: boolean;
}

export const MAX_PHRASE_LENGTH = 500;
/** Longest `userAgent` accepted, in UTF-16 units. */
export const MAX_USER_AGENT_LENGTH = 2000;
export const MAX_EVENTS_PER_REQUEST = 10_000;

const FIELDS = new Set([
  'id',
  'customer',
  'instance',
  'ts',
  'phrase',
  'language',
  'hits',
  'userAgent',
  'bot',
  'sessionId',
  'filters',
  'userToken',
  'country',
  'tags',
]);

/** The service's rules for events, the same for every item (kept apart from the origin, which is per item). */
export interface EventRules {
  retentionDays: number;
  bots: BotDetector;
}

export type ValidationContext = ItemOrigin & EventRules;

export type Validated = { ok: true; row: SearchEventRow } | { ok: false; reason: string };

const fail = (reason: string): Validated => ({ ok: false, reason });

/** Validates and normalises one event; the reason names the field. Never throws. */
export function validateSearchEvent(input: unknown, ctx: ItemOrigin, rules: EventRules): Validated {
  const e = eventObject(input);
  if (e === undefined) {
    return fail('event must be a JSON object');
  }
  for (const field of Object.keys(e)) {
    if (!FIELDS.has(field)) {
      return fail(`unknown field ${echoedName(field)}`);
    }
  }

  const head = tenantAndId(e, ctx);
  if (typeof head === 'string') {
    return fail(head);
  }
  const { customer, instance, id } = head;

  if (typeof e.phrase !== 'string') {
    return fail('phrase is required (a string)');
  }
  // Characters (code points) are counted only where UTF-16 units could exceed the limit.
  if (e.phrase.length > MAX_PHRASE_LENGTH && (e.phrase.length > MAX_PHRASE_LENGTH * 2 || [...e.phrase].length > MAX_PHRASE_LENGTH)) {
    return fail(`phrase is longer than ${MAX_PHRASE_LENGTH} characters`);
  }
  const phrase = normalisePhrase(e.phrase);
  if (phrase.length === 0) {
    return fail('phrase is empty');
  }
  if (typeof e.language !== 'string' || !LANGUAGE_PATTERN.test(e.language)) {
    return fail('language is required (letters and -, e.g. de or de-ch)');
  }
  if (typeof e.hits !== 'number' || !Number.isInteger(e.hits) || e.hits < 0 || e.hits > 0xffffffff) {
    return fail('hits must be an integer >= 0');
  }
  if (e.userAgent !== undefined && (typeof e.userAgent !== 'string' || e.userAgent.length > MAX_USER_AGENT_LENGTH)) {
    return fail(`userAgent must be a string of at most ${MAX_USER_AGENT_LENGTH} characters`);
  }
  if (e.bot !== undefined && typeof e.bot !== 'boolean') {
    return fail('bot must be a boolean');
  }
  const ts = sessionTextAndTime(e, ['phrase', 'userAgent', 'sessionId'], ctx.now, rules.retentionDays);
  if (typeof ts === 'string') {
    return fail(ts);
  }
  const dimensions = searchDimensions(e, customer);
  if (typeof dimensions === 'string') {
    return fail(dimensions);
  }

  return {
    ok: true,
    row: {
      event_id: id ?? randomUUID(),
      customer,
      instance,
      ts: chDateTime(ts),
      phrase,
      raw_phrase: e.phrase,
      language: e.language.toLowerCase(),
      hits: e.hits,
      bot: rules.bots.isBot(e.bot, e.userAgent),
      session_hash: personalHash(customer, e.sessionId),
      source: ctx.source,
      topic: ctx.topic ?? '',
      partition: ctx.partition ?? -1,
      offset: ctx.offset ?? -1,
      received_at: chDateTimeOften(ctx.now),
      ...dimensions,
    },
  };
}
