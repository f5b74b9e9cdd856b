import { chDateTime } from './ch-time';
import type { EventSource } from './search-event';

/** A row of `rejected_events`: nothing is dropped silently; the raw payload is kept with its reason. */
export interface RejectedEventRow {
  customer: string;
  instance: string;
  kind: 'search-event' | 'document';
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

/** A rejected item of an HTTP request, kept with its index. */
export function rejectedHttpItem(
  customer: string,
  instance: string,
  kind: RejectedEventRow['kind'],
  index: number,
  item: unknown,
  reason: string,
  now: number,
): RejectedEventRow {
  return {
    customer,
    instance,
    kind,
    source: 'http',
    topic: '',
    partition: -1,
    offset: -1,
    item_index: index,
    raw: JSON.stringify(item) ?? 'undefined',
    reason,
    received_at: chDateTime(now),
  };
}
