export type EventSource = 'http' | 'kafka';

/** Where an item came from: an HTTP request (with its authenticated tenant) or a Kafka message. */
export interface ItemOrigin {
  /** Receive time (ms); the timestamp of events that carry none. */
  now: number;
  source: EventSource;
  /** HTTP: the authenticated customer and instance, which the items may repeat but not contradict. */
  customer?: string;
  instance?: string;
  topic?: string;
  partition?: number;
  offset?: number;
  /** Kafka message timestamp (ms since the epoch, as a string). */
  timestamp?: string;
}
