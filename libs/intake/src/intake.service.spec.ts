import { loadConfig } from '@app/config';
import { IntakeKinds } from './intake-kinds';
import type { IntakeTransport } from './intake-transport';
import { IntakeService, type InteractionSource } from './intake.service';
import { KafkaTransport } from './kafka.transport';

const kinds = new IntakeKinds(loadConfig({}));
const source: InteractionSource = { validate: () => ({ ok: false, reason: 'unused' }) };

describe('IntakeService.submitInteractions', () => {
  it('refuses (503) before writing anything when the intake runs through Kafka and the source has no message', async () => {
    const send = jest.fn();
    const transport = Object.assign(Object.create(KafkaTransport.prototype) as KafkaTransport, { send });
    const intake = new IntakeService(kinds, transport);
    await expect(intake.submitInteractions('acme', 'shop', [{}], source)).rejects.toMatchObject({ retryAfterSeconds: 60 });
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the rows as a kind of their own: table interactions, its retry token recorded as <token>:interactions', async () => {
    const send = jest.fn(() => Promise.resolve({ accepted: 0, rejected: [] }));
    const intake = new IntakeService(kinds, { send } as unknown as IntakeTransport);
    const withToken: InteractionSource = { ...source, retryToken: () => 'insights:T' };
    await intake.submitInteractions('acme', 'shop', [{}], withToken);
    await intake.submitInteractions('acme', 'shop', [{}], withToken);
    const calls = send.mock.calls as unknown as Array<
      [{ table: string; kind: string; retryTokenOf(r: object, t: string): string }, unknown, { token: string }]
    >;
    const [kind, , request] = calls[0];
    expect([kind.table, kind.kind, request.token, kind.retryTokenOf({}, 'insights:T')]).toEqual([
      'interactions',
      'interaction',
      'insights:T',
      'insights:T:interactions',
    ]);
    expect(calls[1][0]).toBe(kind); // one kind per source: one batcher, one in-flight bound
  });
});
