import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { nextVersion } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import {
  BotDetector,
  canonicalId,
  fromChDateTime,
  validateDocument,
  INSIGHTS_MESSAGE_TYPE,
  validateInsightsMessage,
  validateInteraction,
  validateSearchEvent,
  type DocumentRow,
  type InteractionRow,
  type ItemOrigin,
  type RejectedEventRow,
  type SearchEvent,
  type SearchEventRow,
} from '@app/contracts';
import type { IngestRow, IngestTarget, IngestTargets } from './ingest-writer';
import type { VersionSequence } from './version-sequence';

/**
 * One item validated: its row, or the reason it is rejected. An item may yield several rows (an Insights event with
 * three objectIDs is three interactions): `row` is the first, `more` the others. They are written in the same
 * insert statement (one block: all stored or none, and deduplicated together on a retry) and answered under the
 * item's one index (one accepted item).
 */
export type Validated<Row> = { ok: true; row: Row; more?: Row[] } | { ok: false; reason: string };

/**
 * Everything the intake knows about one kind of item (search events, catalogue documents), used alike by the HTTP
 * intake, both transports and the ingest app's consumer.
 */
export interface IntakeKind<Row extends IngestRow = IngestRow> extends IngestTargets<Row> {
  /** The Kafka topic of this kind. */
  topic: string;
  validate(value: unknown, origin: ItemOrigin): Validated<Row>;
  /**
   * The Kafka message of an item accepted over HTTP: the item as the client sent it (the format producers write
   * to the topic directly, docs/architecture.md), with its tenant and whatever the intake fixed for it.
   */
  message(item: unknown, row: Row): { key: string; value: string; headers?: Record<string, string> };
  /** A deduplication token for a request whose retry must not count twice, if the kind has one. */
  retryToken?(customer: string, instance: string, items: readonly unknown[]): string | undefined;
  /** Stores the request's retry token with the row, where the store records it (see InProcessTransport). */
  markRetry?(row: Row, token: string): void;
  /** Rows that are one event each: the id under which a producer's retry is recognised. */
  eventId?(row: Row): string;
  /** Rows that replace each other by version: gives the row its version in the partition's order. */
  order?(row: Row, versions: VersionSequence): void;
  /** Rejected items leave a notification for their instance (at most one per hour). */
  notifiesRejected: boolean;
  /** The `kind` of a rejected item in rejected_events, when it depends on the item (else the kind's `kind`). */
  rejectedKind?(value: unknown, origin: ItemOrigin): RejectedEventRow['kind'];
  /**
   * With `targetOf`: the name of the request's token for a row's table (`<token>:interactions` for `interactions`,
   * IntakeTokensRepository), so a retried request skips exactly the tables where its rows are stored. Else the token.
   */
  retryTokenOf?(row: Row, token: string): string;
}

/** Kafka header of a search event whose `id` the HTTP intake generated (old ingest apps ignore headers). */
export const ID_HEADER = 'sa-id';
export const ID_GENERATED = 'generated';

/** The rows of the events intake: search events, and clicks and conversions (`type` click or conversion). */
export type EventsRow = SearchEventRow | InteractionRow;

/** Where interactions are written: `interactions`, with their own token (`<token>:interactions`). */
export const INTERACTIONS_TARGET: IngestTarget = { table: 'interactions', kind: 'interaction', tokenSuffix: 'interactions' };

/** The `origin` of clicks and conversions of POST /events and the Kafka topic (POST /1/events stores 'insights'). */
export const NATIVE_ORIGIN = 'events';

/** A row of `interactions` (else of `search_events`). */
export function isInteractionRow(row: object): row is InteractionRow {
  return 'interaction_id' in row;
}

const typeOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined);

/** An item whose `type` says click or conversion (validated as one, rejected as kind 'interaction'). */
function isInteractionItem(value: unknown): boolean {
  const type = typeOf(value);
  return type === 'click' || type === 'conversion';
}

/**
 * A message of the search events topic carrying an event of POST /1/events (InsightsMessage in libs/contracts): its
 * rows are interactions, rejected as kind 'interaction'. Only on Kafka; an item of POST /events never is one.
 */
function isInsightsMessage(value: unknown, origin: Pick<ItemOrigin, 'source'>): boolean {
  return origin.source === 'kafka' && typeOf(value) === INSIGHTS_MESSAGE_TYPE;
}

/** The rows of an InsightsMessage as the events kind gives them: the first, and the others of the same event. */
function insightsMessageRows(value: unknown, origin: ItemOrigin, rules: { retentionDays: number }): Validated<SearchEventRow> {
  const result = validateInsightsMessage(value, origin, rules);
  if (!result.ok) {
    return result;
  }
  // A view is stored like a click (the column is a name), never counted; InteractionRow names only the counted types.
  const [row, ...more] = result.rows as unknown as SearchEventRow[];
  return { ok: true, row, more };
}

/**
 * A search event as validateSearchEvent takes it: without `type` when it says `search` (the default; a message on
 * the topic never carries it, so an ingest app of before clicks takes it); undefined for an unknown `type`.
 */
function withoutSearchType(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('type' in value)) {
    return value;
  }
  const { type, ...search } = value as Record<string, unknown>;
  return type === 'search' ? search : undefined;
}

/** The id and time fixed by the intake, on the item as the client sent it: the Kafka message of an item. */
function withTenant(item: unknown, row: { customer: string; instance: string; ts: string }, id: string): Record<string, unknown> {
  return { ...itemFields(item), customer: row.customer, instance: row.instance, id, ts: fromChDateTime(row.ts) };
}

const itemFields = (item: unknown) => item as Record<string, unknown>;

/**
 * A request whose events all carry ids has a token derived from them: the same request sent again (a client
 * retry) has the same token and is not counted twice. Valid ids are hashed in their canonical form, so a retry
 * that spells them otherwise (case, dashes) is the same request; an invalid one (its item is rejected, and a retry
 * sends the same string) as sent, so the rest of such a request stays protected.
 */
function eventsToken(customer: string, instance: string, items: readonly unknown[]): string | undefined {
  const ids = items.map((i) => (i as { id?: unknown } | null)?.id);
  if (items.length === 0 || !ids.every((id) => typeof id === 'string')) {
    return undefined;
  }
  const canonical = ids.map((id) => canonicalId(id) ?? id);
  return `http:${customer}:${instance}:${createHash('sha256').update(canonical.join(',')).digest('hex')}`;
}

/**
 * The two kinds of items, with the service's retention and one bot-verdict cache. Events are search events, clicks
 * and conversions: rows of `search_events` or `interactions` (EventsRow; `isInteractionRow` tells them apart).
 */
@Injectable()
export class IntakeKinds {
  readonly events: IntakeKind<SearchEventRow>;
  readonly documents: IntakeKind<DocumentRow>;

  constructor(config: AppConfig) {
    const bots = new BotDetector();
    const rules = { retentionDays: config.retentionDays, bots };
    this.events = {
      table: 'search_events',
      kind: 'search-event',
      tokenSuffix: 'events',
      topic: config.kafka.topicSearchEvents,
      notifiesRejected: true,
      validate: (value, origin) => {
        if (isInsightsMessage(value, origin)) {
          return insightsMessageRows(value, origin, rules);
        }
        if (isInteractionItem(value)) {
          // From Kafka without `ts`: the message's timestamp, the same on every delivery (a duplicate stays identical).
          const at = origin.timestamp !== undefined && (value as { ts?: unknown }).ts === undefined ? Number(origin.timestamp) : undefined;
          const result = validateInteraction(value, at === undefined || !Number.isFinite(at) ? origin : { ...origin, now: at }, rules);
          if (result.ok) {
            result.row.origin = NATIVE_ORIGIN;
          }
          return result as unknown as Validated<SearchEventRow>;
        }
        const search = withoutSearchType(value);
        if (search === undefined) {
          return { ok: false, reason: 'type must be search, click or conversion' };
        }
        const result = validateSearchEvent(search, origin, rules);
        if (result.ok) {
          result.row.id_sent = origin.idGenerated !== true && typeof (value as { id?: unknown }).id === 'string';
        }
        return result;
      },
      targetOf: (row) => (isInteractionRow(row) ? INTERACTIONS_TARGET : this.events),
      rejectedKind: (value, origin) => (isInteractionItem(value) || isInsightsMessage(value, origin) ? 'interaction' : 'search-event'),
      // The id and time fixed here, and the bot verdict instead of the user agent (which is not passed on), so the
      // ingest app builds the same row. Keyed by session (or event id): one busy shop spreads over all partitions.
      // The item passed validation, so it is a SearchEvent (libs/contracts): the message is one too. A click or a
      // conversion is the item with its tenant, id and time (the raw session id and user token, hashed at storage).
      message: (item, row) => {
        const { sessionId } = item as SearchEvent;
        if (isInteractionRow(row)) {
          const interaction: InteractionRow = row;
          return { key: sessionId ?? interaction.interaction_id, value: JSON.stringify(withTenant(item, row, interaction.interaction_id)) };
        }
        const value: SearchEvent = {
          ...(withoutSearchType(item) as SearchEvent),
          customer: row.customer,
          instance: row.instance,
          id: row.event_id,
          ts: fromChDateTime(row.ts),
          bot: row.bot,
          userAgent: undefined,
        };
        const message = { key: sessionId ?? row.event_id, value: JSON.stringify(value) };
        return row.id_sent === false ? { ...message, headers: { [ID_HEADER]: ID_GENERATED } } : message;
      },
      retryToken: eventsToken,
      markRetry: (row, token) => {
        row.intake_token = token;
      },
      retryTokenOf: (row, token) => (isInteractionRow(row) ? `${token}:${INTERACTIONS_TARGET.tokenSuffix}` : token),
      // Namespaced for interactions, so a click's id never hides a search's.
      eventId: (row) => (isInteractionRow(row) ? `i:${(row as InteractionRow).interaction_id}` : row.event_id),
    };
    this.documents = {
      table: 'documents',
      kind: 'document',
      tokenSuffix: 'documents',
      topic: config.kafka.topicDocuments,
      notifiesRejected: false,
      // From Kafka: the message time in ns plus the offset, comparable with the HTTP intake's clock; see order.
      validate: (value, origin) =>
        validateDocument(value, {
          ...origin,
          version:
            origin.timestamp === undefined
              ? nextVersion()
              : String(BigInt(origin.timestamp) * 1_000_000n + BigInt((origin.offset ?? 0) % 1_000_000)),
        }),
      // Keyed by id: the writes of one document stay in one partition, in order.
      message: (item, row) => ({
        key: row.id,
        value: JSON.stringify({ ...itemFields(item), customer: row.customer, instance: row.instance }),
      }),
      // VersionSequence keeps versions growing with the offsets whatever the producers' clocks say.
      order: (row, versions) => {
        row.version = versions.next(BigInt(row.version)).toString();
      },
    };
  }

  /** Both kinds, as the consumer handles them (by topic). */
  all(): IntakeKind[] {
    return [this.events, this.documents];
  }
}
