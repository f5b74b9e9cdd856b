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
}
