import { loadConfig } from '@app/config';
import { InProcessTransport } from './in-process.transport';
import type { IngestStore } from './ingest-store.service';
import type { IntakeTokensRepository } from './intake-tokens.repository';
import { IntakeKinds } from './intake-kinds';
import { MAX_ITEMS_IN_FLIGHT } from './intake-transport';
import { httpItems, validateItems } from './validate-items';

const kinds = new IntakeKinds(loadConfig({}));
const SEARCH_ID = '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90';

describe('InProcessTransport with search events and interactions in one request', () => {
  it('counts the whole mixed request against one in-flight bound (the kind), and answers over all its items', async () => {
    let release!: () => void;
    const landed = new Promise<void>((r) => (release = r));
    const store = { store: jest.fn(() => landed.then(() => new Map())) } as unknown as IngestStore;
    const tokens = { stored: () => Promise.resolve(new Set<string>()) } as unknown as IntakeTokensRepository;
    const transport = new InProcessTransport(store, tokens);
    const items = [
      { phrase: 'x', language: 'en', hits: 1 },
      { type: 'click', searchId: SEARCH_ID, objectId: 'p-1', position: 1 },
      { type: 'click', objectId: 'p-2', position: 1 },
    ];
    const send = (values: unknown[]) =>
      transport.send(kinds.events, validateItems(kinds.events, httpItems('acme', 'shop', values)), {
        customer: 'acme',
        instance: 'shop',
        items: values,
      });
    const answer = send(items);
    expect([transport.itemsInFlightOf('search_events'), transport.itemsInFlightOf('interactions')]).toEqual([3, 0]);
    // A request that would take the kind beyond the bound is refused at once, whatever its rows' tables.
    const clicks = Array.from({ length: MAX_ITEMS_IN_FLIGHT }, () => items[1]);
    await expect(send(clicks)).rejects.toThrow(/intake is busy/);
    release();
    expect(await answer).toEqual({
      accepted: 2,
      rejected: [{ index: 2, reason: 'searchId is required for a click (the id of the search)' }],
    });
    expect(transport.itemsInFlightOf('search_events')).toBe(0);
  });
});
