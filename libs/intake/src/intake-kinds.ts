import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { nextVersion } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import {
  BotDetector,
  canonicalId,
  fromChDateTime,
  validateDocument,
  validateSearchEvent,
  type DocumentRow,
  type ItemOrigin,
  type SearchEvent,
  type SearchEventRow,
} from '@app/contracts';
import type { IngestRow, IngestTarget } from './ingest-writer';
import type { VersionSequence } from './version-sequence';

export type Validated<Row> = { ok: true; row: Row } | { ok: false; reason: string };

/**
 * Everything the intake knows about one kind of item (search events, catalogue documents), used alike by the HTTP
 * intake, both transports and the ingest app's consumer.
 */
export interface IntakeKind<Row extends IngestRow = IngestRow> extends IngestTarget {
  /** The Kafka topic of this kind. */
  topic: string;
  validate(value: unknown, origin: ItemOrigin): Validated<Row>;
  /**
   * The Kafka message of an item accepted over HTTP: the item as the client sent it (the format producers write
   * to the topic directly, docs/architecture.md), with its tenant and whatever the intake fixed for it.
   */
  message(item: unknown, row: Row): { key: string; value: string };
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

/** The two kinds of items, with the service's retention and one bot-verdict cache. */
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
      validate: (value, origin) => validateSearchEvent(value, origin, rules),
      // The id and time fixed here, and the bot verdict instead of the user agent (which is not passed on), so the
      // ingest app builds the same row. Keyed by session (or event id): one busy shop spreads over all partitions.
      // The item passed validation, so it is a SearchEvent (libs/contracts): the message is one too.
      message: (item, row) => {
        const { sessionId } = item as SearchEvent;
        const value: SearchEvent = {
          ...(item as SearchEvent),
          customer: row.customer,
          instance: row.instance,
          id: row.event_id,
          ts: fromChDateTime(row.ts),
          bot: row.bot,
          userAgent: undefined,
        };
        return { key: sessionId ?? row.event_id, value: JSON.stringify(value) };
      },
      retryToken: eventsToken,
      markRetry: (row, token) => {
        row.intake_token = token;
      },
      eventId: (row) => row.event_id,
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
