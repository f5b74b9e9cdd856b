import type { Logger } from '@nestjs/common';
import type { Batch } from 'kafkajs';
import type { RejectedEventRow } from '@app/contracts';
import { VersionSequence, validateItems, type IntakeItem, type IntakeKind } from '@app/intake';
import { decodeMessage, messageHash, type KafkaRow } from './kafka-message';
import type { OffsetsRepository } from './offsets.repository';
import { PartitionLedger } from './partition-ledger';
import type { PartitionState } from './partition-states';
import { DEDUP_WINDOW, RecentEventIds } from './recent-event-ids';

// Step 1 of the exactly-once rule (ExactlyOnceBatches): what of a partition batch is left to insert. Each message's
// verdict (already stored, replaced, a repeated event id, or new) is given against the partition's state, read from
// ClickHouse when the partition is (re)opened.

/** The rows of a partition batch per message: consecutive rows of one offset (an Insights event's objects). */
export function byMessage<Row extends { offset: number }>(rows: readonly Row[]): Row[][] {
  const messages: Row[][] = [];
  for (const row of rows) {
    const last = messages.at(-1);
    if (last && last[0].offset === row.offset) {
      last.push(row);
    } else {
      messages.push([row]);
    }
  }
  return messages;
}

/**
 * The rows and rejected rows of a batch to insert: messages whose offsets ClickHouse already holds for these very
 * messages are skipped (PartitionLedger), the rest validated in the intake's one loop; events whose id the
 * partition stored within its last DEDUP_WINDOW messages are skipped (a producer's retry: RecentEventIds), and
 * documents get versions that grow with their offsets (VersionSequence).
 */
export async function toStore(
  kind: IntakeKind<KafkaRow>,
  batch: Batch,
  state: PartitionState,
  logger: Pick<Logger, 'log' | 'warn'>,
): Promise<{ rows: KafkaRow[]; rejected: RejectedEventRow[] }> {
  const { topic, partition, messages } = batch;
  const { ledger, recent, versions } = state;
  const now = Date.now();
  const items: IntakeItem[] = [];
  const verdicts = { stored: 0, replaced: 0, duplicate: 0 };
  for (const message of messages) {
    const offset = Number(message.offset);
    const hash = messageHash(message);
    const pending = ledger.verdict(offset, hash);
    const verdict = typeof pending === 'string' ? pending : await pending;
    if (verdict !== 'new') {
      verdicts[verdict]++;
    }
    if (verdict !== 'stored') {
      items.push(decodeMessage(message, { now, source: 'kafka', topic, partition, offset, timestamp: message.timestamp }, hash));
    }
  }
  const { rows: valid, rejected } = validateItems(kind, items);
  const rows: KafkaRow[] = [];
  const inBatch = new RecentEventIds();
  // A message's rows (several for an Insights event) are kept or skipped together: it is a repeat when any of its
  // ids is recent (they all are, unless the window ends within it).
  for (const message of byMessage(valid)) {
    const seen = (row: KafkaRow, id: string) => recent!.has(row.customer, row.instance, id) || inBatch.has(row.customer, row.instance, id);
    const ids = kind.eventId ? message.map((row) => kind.eventId!(row)) : undefined;
    if (ids?.some((id, i) => seen(message[i], id))) {
      verdicts.duplicate++;
      continue;
    }
    message.forEach((row, i) => {
      if (ids) {
        inBatch.add(row.customer, row.instance, ids[i]);
      }
      if (versions) {
        kind.order!(row, versions);
      }
      rows.push(row);
    });
  }
  logVerdicts(logger, `${topic}:${partition}`, messages[0].offset, messages[messages.length - 1].offset, verdicts);
  return { rows, rejected };
}

function logVerdicts(
  logger: Pick<Logger, 'log' | 'warn'>,
  where: string,
  first: string,
  last: string,
  verdicts: { stored: number; replaced: number; duplicate: number },
): void {
  if (verdicts.duplicate > 0) {
    logger.log(
      `${where}: ${verdicts.duplicate} events of ${first}-${last} repeat an event id stored ` +
        `within the last ${DEDUP_WINDOW} messages; skipping them`,
    );
  }
  if (verdicts.stored > 0) {
    logger.log(`${where}: ${verdicts.stored} offsets from ${first} to ${last} already stored; skipping them`);
  }
  if (verdicts.replaced > 0) {
    logger.warn(
      `${where}: ${verdicts.replaced} offsets from ${first} hold other messages than the ones stored there ` +
        '(topic recreated or cluster replaced); storing them',
    );
  }
}

/** A partition's state as ClickHouse holds it: its stored offsets, its recent event ids, its last document version. */
export async function openPartition(
  offsets: OffsetsRepository,
  kind: IntakeKind<KafkaRow>,
  topic: string,
  partition: number,
  first: number,
) {
  return {
    ledger: await PartitionLedger.open(offsets, kind.table, topic, partition),
    recent: kind.eventId
      ? new RecentEventIds(await offsets.recentEventIds(topic, partition, first + DEDUP_WINDOW, 2 * DEDUP_WINDOW))
      : undefined,
    versions: kind.order ? new VersionSequence(await offsets.lastDocumentVersion(topic, partition)) : undefined,
  };
}
