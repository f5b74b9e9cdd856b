import type { PartitionLedger } from './partition-ledger';
import type { VersionSequence } from '@app/intake';
import type { RecentEventIds } from './recent-event-ids';

/** What the consumer knows of one assigned partition, read from ClickHouse. */
export interface PartitionState {
  ledger: PartitionLedger;
  recent?: RecentEventIds;
  versions?: VersionSequence;
  /** The last offset of the last batch of this partition that was inserted under this state. */
  handledThrough: number;
}

type Open = (topic: string, partition: number, first: number) => Promise<Omit<PartitionState, 'handledThrough'>>;

/**
 * Per assigned partition, its state, read when a batch needs it and read again whenever it may be out of date:
 * after every join (clear), after a batch failed (drop: its insert may have landed though it threw), and when a
 * batch goes back to offsets already handled under the state (kafkajs fetched them again without a rejoin, or
 * reset to the earliest offset of a recreated topic): stored offsets are then checked against ClickHouse again.
 */
export class PartitionStates {
  private readonly states = new Map<string, Promise<PartitionState>>();

  constructor(private readonly open: Open) {}

  /** `before` settles what must be stored before the state is read from ClickHouse (the partition's batch in flight). */
  async get(topic: string, partition: number, first: number, before?: () => Promise<void>): Promise<PartitionState> {
    const key = `${topic}:${partition}`;
    const known = await this.states.get(key)?.catch(() => undefined);
    if (known && first > known.handledThrough) {
      return known;
    }
    const state = Promise.resolve(before?.())
      .then(() => this.open(topic, partition, first))
      .then((s) => ({ ...s, handledThrough: -1 }));
    state.catch(() => this.states.delete(key));
    this.states.set(key, state);
    return state;
  }

  drop(topic: string, partition: number): void {
    this.states.delete(`${topic}:${partition}`);
  }

  clear(): void {
    this.states.clear();
  }
}
