import { randomBytes, randomUUID } from 'node:crypto';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { chDateTime } from '@app/contracts';
import { storedCounts } from '../support/storage';
import {
  LEGACY_SECRET,
  WORKER_DATA_DIR,
  basicHeader,
  hmacHeaders,
  http,
  jwtHeader,
  nonce,
  startApp,
  uniqueDatabase,
  type TestApp,
} from '../support/test-app';

interface KeyView {
  id: string;
  description: string;
  permissions: string[];
  instances?: string[];
  createdAt: string;
}
type CreatedKey = KeyView & { secret: string };

const unauthorized = (message: string) => ({ statusCode: 401, error: 'Unauthorized', message });
const EVERYTHING = ['secret.read', 'secret.write', 'search.write', 'search.read'];

/** An API key signing its requests (HMAC) for `instance` (none: the default, live). */
class SignedBy {
  constructor(
    readonly secret: string,
    readonly instance?: string,
  ) {}

  headers(body = ''): Record<string, string> {
    return { ...hmacHeaders(this.secret, body), ...(this.instance ? { 'x-service-instance': this.instance } : {}) };
  }
}

/** Headers as they are (Basic, JWT), or a key that signs each request. */
type Credential = Record<string, string> | SignedBy;
const headersOf = (auth: Credential, body = '') => (auth instanceof SignedBy ? auth.headers(body) : auth);

/** The requests of the tests below. */
function client(t: TestApp) {
  return {
    create: (auth: Credential, body: object) => {
      const text = JSON.stringify(body);
      return http<CreatedKey>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...headersOf(auth, text), 'content-type': 'application/json' },
        body: text,
      });
    },
    list: (auth: Credential) => http<KeyView[]>(`${t.url}/secret`, { headers: headersOf(auth) }),
    revoke: (auth: Credential, id: string) =>
      http<{ ok: true } | { statusCode: number; error: string; message: string }>(`${t.url}/secret/${id}`, {
        method: 'DELETE',
        headers: headersOf(auth),
      }),
    /** A signed POST /events of one search of `phrase`, for `instance` (none: the default, live). */
    sendEvent: (secret: string, instance: string | undefined, phrase: string, n = nonce()) => {
      const body = JSON.stringify({ events: [{ phrase, language: 'en', hits: 1 }] });
      return http<{ accepted: number; rejected: unknown[] }>(`${t.url}/events`, {
        method: 'POST',
        headers: { ...hmacHeaders(secret, body, n), ...(instance ? { 'x-service-instance': instance } : {}) },
        body,
      });
    },
  };
}

/** A JWT of an admin user with every permission the tests use, limited to `instances`, sent for the first of them. */
function limitedJwt(instances: string[]): Record<string, string> {
  return { ...jwtHeader({ permissions: EVERYTHING, instances }), 'x-service-instance': instances[0] };
}

describe('key scopes: a credential limited to instances creates, lists and revokes keys only within them', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  /** Made by the admin (Basic): one key for live only, one for every instance. */
  let liveKey: CreatedKey;
  let allKey: CreatedKey;
  /** Made by the stage-limited JWT. */
  let stageKey: CreatedKey;
  const stageJwt = () => limitedJwt(['stage']);

  beforeAll(async () => {
    t = await startApp({ SERVICE_INSTANCES: 'live,stage,dev' });
    api = client(t);
  });
  afterAll(() => t.close());

  it('the review: a stage-limited JWT with secret.write makes a key that is refused for live with 401', async () => {
    const created = await api.create(stageJwt(), { description: 'made by the stage admin', permissions: ['search:write'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      description: 'made by the stage admin',
      permissions: ['search:write'],
      instances: ['stage'],
      secret: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      createdAt: expect.any(String) as unknown,
    });
    stageKey = created.body;

    const named = 'Instance not allowed: this credential may not act on the instance named in X-Service-Instance';
    const byDefault =
      "Instance not allowed: this credential may not act on the customer's default instance; name one of its instances in " +
      'X-Service-Instance';
    for (const [instance, message] of [
      ['live', named],
      [undefined, byDefault],
      ['dev', named],
    ]) {
      const refused = await api.sendEvent(stageKey.secret, instance, 'scoped elsewhere');
      expect([instance, refused.status, refused.body]).toEqual([instance, 401, unauthorized(message as string)]);
    }
  });

  it("stores the key's signed POST /events on stage exactly once, and nowhere else", async () => {
    const before = await storedCounts(t);
    const n = nonce();
    const sent = await api.sendEvent(stageKey.secret, 'stage', 'scoped stage', n);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ accepted: 1, rejected: [] });
    expect(sent.headers['x-request-id']).toEqual(expect.any(String));
    // The same signed request again, for stage and for live: the nonce is spent, and live is out of the key's reach.
    expect((await api.sendEvent(stageKey.secret, 'stage', 'scoped stage', n)).status).toBe(401);
    expect((await api.sendEvent(stageKey.secret, 'live', 'scoped stage', n)).status).toBe(401);
    expect((await api.sendEvent(stageKey.secret, 'live', 'scoped stage')).status).toBe(401);

    const after = await storedCounts(t);
    expect([after.events - before.events, after.rollup - before.rollup, after.rejected - before.rejected]).toEqual([1, 1, 0]);
    const terms = async (instance: string) =>
      (
        await http<Array<{ search_phrase: string; count: number }>>(`${t.url}/search-terms?_end=100`, {
          headers: { ...basicHeader(), 'x-service-instance': instance },
        })
      ).body.filter((term) => term.search_phrase.startsWith('scoped'));
    expect(await terms('stage')).toEqual([expect.objectContaining({ search_phrase: 'scoped stage', count: 1 })]);
    expect(await terms('live')).toEqual([]);
    expect(await terms('dev')).toEqual([]);
  });

  it('answers 400 naming the instance when a limited credential asks for one beyond its own, and creates nothing', async () => {
    const keysBefore = (await api.list(basicHeader())).body.length;
    const refused = async (instances: unknown, message: string | string[], auth = stageJwt()) => {
      const res = await api.create(auth, { description: 'wider', permissions: ['search:write'], instances });
      expect([instances, res.status, res.body]).toEqual([instances, 400, { statusCode: 400, error: 'Bad Request', message }]);
    };
    await refused(['live'], 'Instance(s) this credential may not act on: live');
    await refused(['stage', 'live', 'dev', 'live'], 'Instance(s) this credential may not act on: live, dev');
    // Not an instance of the customer at all: the same answer to a limited credential (which is not told which
    // instances the customer has beyond its own), and "unknown" to an unlimited one.
    await refused(['nowhere'], 'Instance(s) this credential may not act on: nowhere');
    await refused(['nowhere', 'live'], 'Unknown instance(s): nowhere', basicHeader());
    // An empty list would be a key for no instance; an instance name is at most 63 characters (a DNS label).
    await refused([], ['instances must contain at least 1 elements']);
    await refused(
      ['x'.repeat(64)],
      ['each value in instances must be longer than or equal to 1 and shorter than or equal to 63 characters'],
    );
    expect((await api.list(basicHeader())).body).toHaveLength(keysBefore);
  });

  it('lists to a limited credential only the keys within its instances', async () => {
    const within = await api.create(stageJwt(), { description: 'within', permissions: ['search:write'], instances: ['stage'] });
    expect([within.status, within.body.instances]).toEqual([201, ['stage']]);
    liveKey = (await api.create(basicHeader(), { description: 'live importer', permissions: ['search:write'], instances: ['live'] })).body;
    allKey = (await api.create(basicHeader(), { description: 'every instance', permissions: ['search:write'] })).body;
    expect(liveKey.instances).toEqual(['live']);
    expect(allKey).not.toHaveProperty('instances');

    const everything = await api.list(basicHeader());
    expect(everything.status).toBe(200);
    const byDescription = Object.fromEntries(everything.body.map((k) => [k.description, k.instances ?? 'all']));
    expect(byDescription).toEqual({
      'legacy secret': 'all',
      'made by the stage admin': ['stage'],
      within: ['stage'],
      'live importer': ['live'],
      'every instance': 'all',
    });

    const scoped = await api.list(stageJwt());
    expect(scoped.status).toBe(200);
    expect(scoped.body.map((k) => [k.description, k.instances])).toEqual([
      ['made by the stage admin', ['stage']],
      ['within', ['stage']],
    ]);
  });

  it('answers 404 to a limited credential revoking a key beyond its instances, as for an unknown id; the key keeps working', async () => {
    const unknownId = randomUUID();
    const unknown = await api.revoke(stageJwt(), unknownId);
    expect(unknown.status).toBe(404);
    const legacyId = (await api.list(basicHeader())).body.find((k) => k.description === 'legacy secret')?.id as string;
    for (const id of [liveKey.id, allKey.id, legacyId]) {
      const res = await api.revoke(stageJwt(), id);
      expect([res.status, JSON.stringify(res.body).replace(id, '<id>')]).toEqual([
        404,
        JSON.stringify(unknown.body).replace(unknownId, '<id>'),
      ]);
    }
    // Nothing was revoked: each key still signs, and the admin still lists them.
    expect((await api.sendEvent(liveKey.secret, 'live', 'still live')).status).toBe(202);
    expect((await api.sendEvent(allKey.secret, 'stage', 'still everywhere')).status).toBe(202);
    expect((await api.sendEvent(LEGACY_SECRET, 'live', 'still legacy')).status).toBe(202);
    expect((await api.list(basicHeader())).body.map((k) => k.id)).toEqual(expect.arrayContaining([liveKey.id, allKey.id, legacyId]));

    // Its own keys it revokes.
    expect(await api.revoke(stageJwt(), stageKey.id)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await api.sendEvent(stageKey.secret, 'stage', 'revoked')).status).toBe(401);
  });

  it('limits a key made by a limited key the same way (HMAC)', async () => {
    const admin = (await api.create(stageJwt(), { description: 'stage admin key', permissions: ['secret:read', 'secret:write'] })).body;
    expect(admin.instances).toEqual(['stage']);
    const asAdmin = new SignedBy(admin.secret, 'stage');

    expect((await api.list(new SignedBy(admin.secret, 'live'))).status).toBe(401);
    const made = await api.create(asAdmin, { description: 'made by a stage key', permissions: ['secret:read'] });
    expect([made.status, made.body.instances]).toEqual([201, ['stage']]);
    const wider = await api.create(asAdmin, { description: 'wider', permissions: ['secret:read'], instances: ['stage', 'live'] });
    expect([wider.status, wider.body]).toEqual([
      400,
      { statusCode: 400, error: 'Bad Request', message: 'Instance(s) this credential may not act on: live' },
    ]);

    const listed = await api.list(asAdmin);
    expect(listed.status).toBe(200);
    expect(listed.body.every((k) => k.instances?.length === 1 && k.instances[0] === 'stage')).toBe(true);
    expect(listed.body.map((k) => k.description)).toEqual(['within', 'stage admin key', 'made by a stage key']);

    for (const id of [liveKey.id, allKey.id]) {
      expect((await api.revoke(asAdmin, id)).status).toBe(404);
    }
    expect((await api.sendEvent(liveKey.secret, 'live', 'still live')).status).toBe(202);
    expect((await api.revoke(asAdmin, made.body.id)).status).toBe(200);
  });

  it('gives a key of an unlimited credential every instance, or the ones it names', async () => {
    for (const instance of ['live', 'stage', 'dev']) {
      expect((await api.sendEvent(allKey.secret, instance, 'all')).status).toBe(202);
    }

    const named = await api.create(basicHeader(), {
      description: 'two',
      permissions: ['search:write'],
      instances: ['live', 'dev', 'live'],
    });
    expect([named.status, named.body.instances]).toEqual([201, ['dev', 'live']]);
    expect((await api.sendEvent(named.body.secret, 'dev', 'two')).status).toBe(202);
    expect((await api.sendEvent(named.body.secret, 'stage', 'two')).status).toBe(401);

    // A JWT without an instances claim is unlimited too.
    const byJwt = await api.create(jwtHeader({ permissions: EVERYTHING }), {
      description: 'jwt, unlimited',
      permissions: ['search:write'],
    });
    expect(byJwt.status).toBe(201);
    expect(byJwt.body).not.toHaveProperty('instances');
    expect((await api.sendEvent(byJwt.body.secret, 'dev', 'jwt')).status).toBe(202);
  });

  it("gives a JWT limited to several instances' key exactly the customer's instances among them", async () => {
    const jwt = { ...jwtHeader({ permissions: EVERYTHING, instances: ['stage', 'ghost', 'dev'] }), 'x-service-instance': 'dev' };
    const made = await api.create(jwt, { description: 'stage and dev', permissions: ['search:write'] });
    expect([made.status, made.body.instances]).toEqual([201, ['dev', 'stage']]);
    const listed = (await api.list(jwt)).body;
    expect(listed.map((k) => k.id)).toContain(made.body.id);
    expect(listed.filter((k) => !k.instances || k.instances.some((i) => i !== 'stage' && i !== 'dev'))).toEqual([]);
    // Its own limit names ghost, which the customer does not have: 400 too.
    const ghost = await api.create(jwt, { description: 'ghost', permissions: ['search:write'], instances: ['ghost'] });
    expect([ghost.status, ghost.body]).toEqual([
      400,
      { statusCode: 400, error: 'Bad Request', message: 'Instance(s) this credential may not act on: ghost' },
    ]);
  });
});

describe('a key stored before key scopes existed', () => {
  let t: TestApp;
  const database = uniqueDatabase();
  const old = { id: randomUUID(), secret: randomBytes(32).toString('hex') };

  beforeAll(async () => {
    // Storage as the previous release left it: the migrations before key scopes, and a key in the old columns.
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      const scopes = MIGRATIONS.findIndex((m) => m.id === '0013-key-instances');
      expect(scopes).toBeGreaterThan(0);
      await new MigratorService(ch, config).migrate(MIGRATIONS.slice(0, scopes));
      await ch.insert('api_keys', [
        {
          customer: 'demo',
          id: old.id,
          version: '1',
          description: 'stored before',
          permissions: ['search:write', 'secret:read'],
          secret: old.secret,
          legacy: false,
          revoked: false,
          created_at: chDateTime(),
          changed_at: chDateTime(),
        },
      ]);
    } finally {
      await ch.onApplicationShutdown();
    }
    t = await startApp({ CLICKHOUSE_DATABASE: database });
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps working for every instance, reads without instances, and lies within no limited credential', async () => {
    const api = client(t);
    for (const instance of ['live', 'stage']) {
      expect((await api.sendEvent(old.secret, instance, 'old key')).status).toBe(202);
      expect((await api.list(new SignedBy(old.secret, instance))).status).toBe(200);
    }
    const listed = (await api.list(basicHeader())).body.find((k) => k.id === old.id);
    expect(listed).toEqual({
      id: old.id,
      description: 'stored before',
      permissions: ['search:write', 'secret:read'],
      createdAt: expect.any(String) as unknown,
    });
    expect((await api.list(limitedJwt(['stage']))).body.map((k) => k.id)).not.toContain(old.id);
    expect((await api.revoke(limitedJwt(['live']), old.id)).status).toBe(404);
    expect((await api.sendEvent(old.secret, 'live', 'old key')).status).toBe(202);
  });
});
