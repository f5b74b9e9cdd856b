import { hash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { KafkaMessage } from 'kafkajs';
import type { ItemOrigin } from '@app/contracts';
import { ID_GENERATED, ID_HEADER, type IngestRow, type IntakeItem } from '@app/intake';

/** A row as the consumer writes it: with the hash of the message it came from (see PartitionLedger). */
export type KafkaRow = IngestRow & { message_hash: string };

/** Identifies a message within its partition across incarnations of the topic: its timestamp and value. */
export function messageHash(message: Pick<KafkaMessage, 'timestamp' | 'value'>): string {
  // One call of the one-shot hash: a Hash object per message cost more than the digest itself.
  const timestamp = Buffer.from(`${message.timestamp}\n`);
  const digest = hash('md5', message.value ? Buffer.concat([timestamp, message.value]) : timestamp, 'buffer');
  // UInt64 without 0, which marks rows stored before hashes were kept.
  return (digest.readBigUInt64BE(0) | 1n).toString();
}

/** The bytes of the messages' values: what a batch holds in memory until it is stored. */
export const valueBytes = (messages: readonly Pick<KafkaMessage, 'value'>[]) => messages.reduce((n, m) => n + (m.value?.length ?? 0), 0);

/**
 * One message as an item of the intake's validation loop (never a throw): its value must be UTF-8 JSON. A message
 * that is not carries the reason as its problem, and its raw text, so it is kept in rejected_events with its offset.
 */
export function decodeMessage(message: KafkaMessage, origin: ItemOrigin, hash: string): IntakeItem {
  const value = message.value ?? Buffer.alloc(0);
  const raw = value.toString('utf8');
  let parsed: unknown;
  let problem: string | undefined;
  try {
    parsed = JSON.parse(raw); // invalid UTF-8 too (decoded with U+FFFD), only to name the customer of the rejection
  } catch {
    problem = 'not JSON';
  }
  if (!isUtf8(value)) {
    problem = 'message is not valid UTF-8';
  }
  // The HTTP intake generated the id of a search event sent without one (see IntakeKinds' message).
  const generated = message.headers?.[ID_HEADER]?.toString() === ID_GENERATED;
  return { value: parsed, origin: generated ? { ...origin, idGenerated: true } : origin, raw, problem, messageHash: hash };
}
