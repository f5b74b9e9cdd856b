import type { EventSource } from './item-origin';

/** A row of `rejected_events`: nothing is dropped silently; the raw payload is kept with its reason. */
export interface RejectedEventRow {
  customer: string;
  instance: string;
  kind: 'search-event' | 'interaction' | 'document';
  source: EventSource;
  topic: string;
  partition: number;
  offset: number;
  item_index: number;
  raw: string;
  reason: string;
  received_at: string;
  /** Kafka only: the hash of the message (timestamp and value), so its offset is known to be stored. */
  message_hash?: string;
}
