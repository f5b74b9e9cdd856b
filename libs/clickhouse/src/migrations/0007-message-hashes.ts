import type { Migration } from './migration';

/**
 * The hash of the Kafka message (timestamp and value) each row came from, so the ingest consumer can tell a
 * re-delivered message (same offset, same hash: already stored) from a message of a recreated topic or a new
 * cluster at an old offset (other hash: stored). 0 for rows from HTTP and for rows stored before this column.
 */
export const messageHashesMigration: Migration = {
  id: '0007-message-hashes',
  statements: ({ table }) =>
    ['search_events', 'documents', 'rejected_events'].map(
      (name) => `ALTER TABLE ${table(name)} ADD COLUMN IF NOT EXISTS message_hash UInt64 DEFAULT 0`,
    ),
};
