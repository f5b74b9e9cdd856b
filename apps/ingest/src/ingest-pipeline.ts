import type { RejectedEventRow } from '@app/contracts';

export interface MessageContext {
  now: number;
  topic: string;
  partition: number;
  offset: number;
  /** Kafka message timestamp (ms since the epoch, as a string). */
  timestamp: string;
}

/** What the ingest consumer does with the messages of one topic. */
export interface IngestPipeline<Row extends object = object> {
  /** The table the rows go to; with rejected_events, where stored offsets are looked up. */
  table: 'search_events' | 'documents';
  kind: RejectedEventRow['kind'];
  validate(value: unknown, ctx: MessageContext): { ok: true; row: Row } | { ok: false; reason: string };
  write(rows: Row[], rejected: RejectedEventRow[], token: string): Promise<void>;
}
