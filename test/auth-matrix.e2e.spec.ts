import { ProvisioningService, signRequest, type GeneratedCredentials, type Permission } from '@app/auth';
import { basicHeader, http, jwtHeader, nonce, startApp, type TestApp } from './support/test-app';

interface Route {
  method: string;
  path: string;
  permission: Permission;
  body?: unknown;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/secret', permission: 'secret:read' },
  { method: 'POST', path: '/secret', permission: 'secret:write', body: { description: 'm', permissions: ['secret:write'] } },
  { method: 'DELETE', path: '/secret/00000000-0000-4000-8000-000000000000', permission: 'secret:write' },
  { method: 'POST', path: '/events', permission: 'search:write', body: { events: [{ phrase: 'matrix', language: 'en', hits: 1 }] } },
  { method: 'PUT', path: '/documents', permission: 'persistence:write', body: { documents: [{ id: 'd1', rating: 0.5 }] } },
  { method: 'GET', path: '/search-terms', permission: 'search:read' },
  { method: 'GET', path: '/ranking-mix-config/check-data', permission: 'ranking-mix:read' },
  { method: 'GET', path: '/configuration', permission: 'configuration:read' },
  { method: 'PUT', path: '/configuration', permission: 'configuration:write', body: { webhookConfig: { url: '' } } },
  { method: 'GET', path: '/notifications', permission: 'notifications:read' },
  { method: 'DELETE', path: '/notifications?ids[]=n1', permission: 'notifications:write' },
  { method: 'GET', path: '/entities/menu', permission: 'entities:read' },
  { method: 'GET', path: '/entities/menu/m1', permission: 'entities:read' },
  { method: 'PUT', path: '/entities/menu/m1', permission: 'entities:write', body: { data: {} } },
  { method: 'PUT', path: '/entities/menu', permission: 'entities:write', body: { items: [{ id: 'm2' }] } },
  { method: 'DELETE', path: '/entities/menu/m1', permission: 'entities:write' },
  { method: 'DELETE', path: '/entities/menu?ids[]=m2', permission: 'entities:write' },
  { method: 'DELETE', path: '/1/usertokens/shopper-1', permission: 'events:delete' },
  { method: 'POST', path: '/annotations', permission: 'annotations:write', body: { text: 'matrix' } },
  { method: 'GET', path: '/annotations', permission: 'annotations:read' },
  { method: 'DELETE', path: '/annotations/00000000-0000-4000-8000-000000000000', permission: 'annotations:write' },
];

type Scheme = 'hmac' | 'basic' | 'jwt';
type Case =
  | 'none'
  | 'wrong'
  | 'other customer'
  | 'instance not allowed'
  | 'beyond its instances'
  | 'without permission'
  | 'with permission'
  | 'with permission, within its instances';

const HOST = 'shop1.api.example.test';

function hmac(secret: string, body: string): Record<string, string> {
  const n = nonce();
  return { 'x-service-nonce': n, 'x-service-hash': signRequest(secret, n, body) };
}

describe('authentication matrix: every route x every scheme x every case', () => {
  let t: TestApp;
  let shop1: GeneratedCredentials;
  let shop2: GeneratedCredentials;
  // shop1Stage: keys of shop1 limited to its instance stage.
  const keys: Record<string, Record<string, string>> = { shop1: {}, shop2: {}, shop1Stage: {} };

  beforeAll(async () => {
    t = await startApp({ BASE_DOMAIN: 'api.example.test', SERVICE_BASIC_AUTH: '', SERVICE_LEGACY_SECRET: '', RATE_LIMIT_PER_MINUTE: '0' });
    shop1 = await t.app.get(ProvisioningService).createCustomer('shop1', ['live', 'stage']);
    shop2 = await t.app.get(ProvisioningService).createCustomer('shop2', ['live']);
    for (const [name, c] of [
      ['shop1', shop1],
      ['shop2', shop2],
    ] as const) {
      for (const permission of new Set(ROUTES.map((r) => r.permission))) {
        const res = await http<{ secret: string }>(`${t.url}/secret`, {
          method: 'POST',
          headers: { host: `${name}.api.example.test`, ...basicHeader(c.basicLogin, c.basicPassword), 'content-type': 'application/json' },
          body: JSON.stringify({ description: permission, permissions: [permission] }),
        });
        keys[name][permission] = res.body.secret;
      }
    }
    for (const permission of new Set(ROUTES.map((r) => r.permission))) {
      const res = await http<{ secret: string }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { host: HOST, ...basicHeader(shop1.basicLogin, shop1.basicPassword), 'content-type': 'application/json' },
        body: JSON.stringify({ description: `${permission} on stage`, permissions: [permission], instances: ['stage'] }),
      });
      expect([permission, res.status]).toEqual([permission, 201]);
      keys.shop1Stage[permission] = res.body.secret;
    }
  });
  afterAll(() => t.close());

  function credentials(scheme: Scheme, kase: Case, route: Route, body: string): Record<string, string> | undefined {
    const other: Permission = route.permission === 'search:read' ? 'secret:read' : 'search:read';
    const signed = (secret: string) => hmac(secret, body);
    const claims = (permission: Permission, extra: object = {}) => ({
      permissions: [permission.replace(':', '.')],
      customer: 'shop1',
      ...extra,
    });
    switch (kase) {
      case 'none':
        return {};
      case 'wrong':
        return scheme === 'hmac'
          ? signed('f'.repeat(64))
          : scheme === 'basic'
            ? basicHeader('admin', 'wrong-password')
            : jwtHeader(claims(route.permission), { expiresIn: 60 }, 'another-jwt-secret-0123456789abcdef');
      case 'other customer':
        return scheme === 'hmac'
          ? signed(keys.shop2[route.permission])
          : scheme === 'basic'
            ? basicHeader(shop2.basicLogin, shop2.basicPassword)
            : jwtHeader(claims(route.permission, { customer: 'shop2' }));
      case 'instance not allowed':
        return scheme === 'jwt'
          ? { ...jwtHeader(claims(route.permission, { instances: ['stage'] })), 'x-service-instance': 'live' }
          : {
              ...(scheme === 'hmac' ? signed(keys.shop1[route.permission]) : basicHeader(shop1.basicLogin, shop1.basicPassword)),
              'x-service-instance': 'elsewhere',
            };
      case 'beyond its instances':
        // A key limited to stage, sent for live (the JWT's instances claim is the case above).
        return scheme === 'hmac' ? { ...signed(keys.shop1Stage[route.permission]), 'x-service-instance': 'live' } : undefined;
      case 'without permission':
        if (scheme === 'basic') {
          // Basic holds every permission
          return undefined;
        }
        return scheme === 'hmac' ? signed(keys.shop1[other]) : jwtHeader(claims(other));
      case 'with permission':
        return scheme === 'hmac'
          ? signed(keys.shop1[route.permission])
          : scheme === 'basic'
            ? basicHeader(shop1.basicLogin, shop1.basicPassword)
            : jwtHeader(claims(route.permission));
      case 'with permission, within its instances':
        if (scheme === 'basic') {
          // Basic is never limited
          return undefined;
        }
        return {
          ...(scheme === 'hmac'
            ? signed(keys.shop1Stage[route.permission])
            : jwtHeader(claims(route.permission, { instances: ['stage'] }))),
          'x-service-instance': 'stage',
        };
    }
  }

  const PASSING: Case[] = ['with permission', 'with permission, within its instances'];
  const EXPECTED: Record<Exclude<Case, 'with permission' | 'with permission, within its instances'>, number> = {
    none: 401,
    wrong: 401,
    'other customer': 401,
    'instance not allowed': 401,
    'beyond its instances': 401,
    'without permission': 403,
  };

  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: only valid credentials with the permission pass',
    async (_name, route) => {
      const outcomes: string[] = [];
      for (const scheme of ['hmac', 'basic', 'jwt'] as Scheme[]) {
        for (const kase of [...(Object.keys(EXPECTED) as Case[]), ...PASSING]) {
          const body = route.body === undefined ? '' : JSON.stringify(route.body);
          const headers = credentials(scheme, kase, route, body);
          if (!headers) {
            continue;
          }
          const res = await http(`${t.url}${route.path}`, {
            method: route.method,
            headers: { host: 'shop1.api.example.test', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
            body: body || undefined,
          });
          const ok = PASSING.includes(kase)
            ? ![401, 403].includes(res.status) && res.status < 500
            : res.status === EXPECTED[kase as keyof typeof EXPECTED];
          if (!ok) {
            outcomes.push(`${scheme} / ${kase}: ${res.status}`);
          }
        }
      }
      expect(outcomes).toEqual([]);
    },
  );

  describe('the routes that create, list and revoke keys, with a credential limited to stage', () => {
    interface Key {
      id: string;
      secret: string;
      instances?: string[];
    }
    const basic = () => ({ host: HOST, ...basicHeader(shop1.basicLogin, shop1.basicPassword) });
    const send = <T = unknown>(method: string, path: string, headers: (body: string) => Record<string, string>, payload?: object) => {
      const body = payload === undefined ? '' : JSON.stringify(payload);
      return http<T>(`${t.url}${path}`, {
        method,
        headers: { ...headers(body), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body || undefined,
      });
    };
    /** Keys out of stage's reach, new for each test: shop1's for live, shop1's for every instance, and shop2's. */
    const beyond: Record<string, string> = {};

    beforeEach(async () => {
      const make = async (headers: Record<string, string>, payload: object) =>
        (await send<Key>('POST', '/secret', () => headers, payload)).body.id;
      beyond['a live key'] = await make(basic(), { description: 'live', permissions: ['search:write'], instances: ['live'] });
      beyond['a key for every instance'] = await make(basic(), { description: 'all', permissions: ['search:write'] });
      beyond["shop2's key"] = await make(
        { host: 'shop2.api.example.test', ...basicHeader(shop2.basicLogin, shop2.basicPassword) },
        { description: 'shop2', permissions: ['search:write'] },
      );
    });

    const limited: Record<'jwt' | 'hmac', () => Promise<(body: string) => Record<string, string>>> = {
      jwt: () =>
        Promise.resolve(() => ({
          host: HOST,
          ...jwtHeader({ permissions: ['secret.read', 'secret.write'], customer: 'shop1', instances: ['stage'] }),
          'x-service-instance': 'stage',
        })),
      hmac: async () => {
        const payload = { description: 'stage admin', permissions: ['secret:read', 'secret:write'], instances: ['stage'] };
        const key = (await send<Key>('POST', '/secret', basic, payload)).body;
        return (body) => ({ host: HOST, ...hmac(key.secret, body), 'x-service-instance': 'stage' });
      },
    };

    it.each(['jwt', 'hmac'] as const)('%s: POST, GET and DELETE /secret stay within its instances', async (scheme) => {
      const headers = await limited[scheme]();
      const outcomes: string[] = [];
      const made = await send<Key>('POST', '/secret', headers, { description: 'scoped', permissions: ['secret:read'] });
      outcomes.push(`POST /secret: ${made.status} ${JSON.stringify(made.body.instances)}`);
      for (const instances of [['live'], ['stage', 'live']]) {
        const wider = await send<{ message: string }>('POST', '/secret', headers, {
          description: 'wider',
          permissions: ['secret:read'],
          instances,
        });
        outcomes.push(
          `POST /secret for ${instances.join(',')}: ${wider.status}, names live: ${String(wider.body.message).includes('live')}`,
        );
      }
      const listed = await send<Key[]>('GET', '/secret', headers);
      const within = listed.body.every((k) => JSON.stringify(k.instances) === '["stage"]');
      outcomes.push(
        `GET /secret: ${listed.status}, all within stage: ${within}, lists its key: ${listed.body.some((k) => k.id === made.body.id)}`,
      );
      for (const [what, id] of Object.entries(beyond)) {
        outcomes.push(`DELETE ${what}: ${(await send('DELETE', `/secret/${id}`, headers)).status}`);
      }
      outcomes.push(`DELETE its key: ${(await send('DELETE', `/secret/${made.body.id}`, headers)).status}`);
      expect(outcomes).toEqual([
        'POST /secret: 201 ["stage"]',
        'POST /secret for live: 400, names live: true',
        'POST /secret for stage,live: 400, names live: true',
        'GET /secret: 200, all within stage: true, lists its key: true',
        'DELETE a live key: 404',
        'DELETE a key for every instance: 404',
        "DELETE shop2's key: 404",
        'DELETE its key: 200',
      ]);
      // Nothing beyond stage was revoked: the admin still lists shop1's keys.
      const ids = (await send<Key[]>('GET', '/secret', basic)).body.map((k) => k.id);
      expect(ids).toEqual(expect.arrayContaining([beyond['a live key'], beyond['a key for every instance']]));
    });
  });

  describe('every 401 names the rule that failed, and never echoes what was sent', () => {
    interface Sent {
      headers: Record<string, string>;
      host?: string;
      /** Sent as POST /events when given, else GET /search-terms. */
      body?: string;
      /** What the request carried that no answer may show: secrets, hashes, nonces, passwords, tokens. */
      secrets: string[];
    }
    const events = JSON.stringify({ events: [{ phrase: 'rules', language: 'en', hits: 1 }] });
    const signedBy = (secret: string, n = nonce(), body = events): Sent => {
      const hash = signRequest(secret, n, body);
      return { headers: { 'x-service-nonce': n, 'x-service-hash': hash }, body, secrets: [secret, n, hash] };
    };
    const bearer = (claims: Record<string, unknown>, options?: Parameters<typeof jwtHeader>[1], secret?: string): Sent => {
      const headers = jwtHeader(claims, options, secret);
      const token = headers.authorization.slice('Bearer '.length);
      return { headers, secrets: [token, token.split('.')[2], ...(secret ? [secret] : [])].filter(Boolean) };
    };
    const basicOf = (login: string, password: string): Sent => ({
      headers: basicHeader(login, password),
      secrets: [password, basicHeader(login, password).authorization.slice('Basic '.length)],
    });
    const reader = { permissions: ['search.read'], customer: 'shop1' };
    const NO_KEY_MATCHES =
      "X-Service-Hash matches no active API key: it must be the hex HMAC-SHA256 of nonce + ':' + the raw body (an empty string " +
      "for no body), keyed with the key's secret";
    const nowS = () => Math.floor(Date.now() / 1000);

    const RULES: Array<[string, () => Sent | Promise<Sent>, string]> = [
      [
        'no credentials',
        () => ({ headers: {}, secrets: [] }),
        'No credentials: send X-Service-Nonce and X-Service-Hash (HMAC), or Authorization: Basic or Bearer',
      ],
      [
        'HMAC without X-Service-Hash',
        () => {
          const sent = signedBy(keys.shop1['search:write']);
          return { ...sent, headers: { 'x-service-nonce': sent.headers['x-service-nonce'] } };
        },
        'X-Service-Hash header missing: HMAC needs both X-Service-Nonce and X-Service-Hash',
      ],
      [
        'HMAC without X-Service-Nonce',
        () => {
          const sent = signedBy(keys.shop1['search:write']);
          return { ...sent, headers: { 'x-service-hash': sent.headers['x-service-hash'] } };
        },
        'X-Service-Nonce header missing: HMAC needs both X-Service-Nonce and X-Service-Hash',
      ],
      [
        'a nonce not of its form',
        () => signedBy(keys.shop1['search:write'], `${nonce()}!`),
        'X-Service-Nonce not of its form: 8 to 128 characters of A-Z, a-z, 0-9, _ and - (e.g. 16 random bytes as 32 hex characters)',
      ],
      [
        'a hash not of its form',
        () => {
          const sent = signedBy(keys.shop1['search:write']);
          return { ...sent, headers: { ...sent.headers, 'x-service-hash': sent.headers['x-service-hash'].slice(1) } };
        },
        'X-Service-Hash not of its form: 64 hex characters (a hex HMAC-SHA256)',
      ],
      [
        'a nonce already used',
        async () => {
          const sent = signedBy(keys.shop1['search:write']);
          const first = await http(`${t.url}/events`, {
            method: 'POST',
            headers: { host: HOST, 'content-type': 'application/json', ...sent.headers },
            body: sent.body,
          });
          expect(first.status).toBe(202);
          return sent;
        },
        'X-Service-Nonce already used: send a new nonce with every request (a nonce is accepted once per customer within 24 h)',
      ],
      ['a hash that matches no active key', () => signedBy('f'.repeat(64)), NO_KEY_MATCHES],
      [
        'a body changed after signing',
        () => ({ ...signedBy(keys.shop1['search:write']), body: events.replace('rules', 'Rules') }),
        NO_KEY_MATCHES,
      ],
      [
        'Basic without login:password',
        () => ({ headers: { authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}` }, secrets: ['no-colon-here'] }),
        'Authorization: Basic must carry base64 of login:password',
      ],
      [
        'Basic with a wrong password',
        () => basicOf(shop1.basicLogin, 'wrong-password-4711'),
        'Basic credentials wrong: the login or the password does not match',
      ],
      [
        'Basic with a wrong login',
        () => basicOf('someone-else', shop1.basicPassword),
        'Basic credentials wrong: the login or the password does not match',
      ],
      [
        'an unsupported Authorization scheme',
        () => ({ headers: { authorization: 'Digest username="a", response="0123456789abcdef"' }, secrets: ['0123456789abcdef'] }),
        'Unsupported Authorization scheme: use Basic or Bearer, or no Authorization header and the HMAC headers',
      ],
      [
        'a malformed JWT',
        () => ({ headers: { authorization: 'Bearer not-a-token-4711' }, secrets: ['not-a-token-4711'] }),
        'JWT malformed: expected header.payload.signature, base64url, with a JSON object as payload',
      ],
      [
        'a JWT signed with another key',
        () => bearer(reader, { expiresIn: 60 }, 'another-jwt-secret-0123456789abcdef'),
        "JWT badly signed: its signature does not verify with the service's JWT key and algorithm",
      ],
      [
        'a JWT with alg none',
        () => {
          const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
          const token = `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...reader, sub: 'x', exp: nowS() + 60 })}.`;
          return { headers: { authorization: `Bearer ${token}` }, secrets: [token] };
        },
        "JWT badly signed: its signature does not verify with the service's JWT key and algorithm",
      ],
      ['an expired JWT', () => bearer({ ...reader, exp: nowS() - 60 }, {}), 'JWT expired: its exp is past'],
      ['a JWT not valid yet', () => bearer(reader, { expiresIn: 600, notBefore: 300 }), 'JWT not valid yet: its nbf is in the future'],
      ['a JWT without exp', () => bearer(reader, {}), 'JWT lacks the required claim exp, or it is not a number (seconds since 1970)'],
      ['a JWT without sub', () => bearer({ ...reader, sub: '' }), 'JWT lacks the required claim sub (a non-empty string)'],
      [
        'a JWT without permissions',
        () => bearer({ customer: 'shop1' }),
        'JWT lacks the required claim permissions (an array of permission names in dot notation, e.g. search.read)',
      ],
      [
        'a JWT without customer (several customers)',
        () => bearer({ permissions: ['search.read'] }),
        'JWT lacks the required claim customer (this service serves several customers)',
      ],
      [
        'a JWT of another customer',
        () => bearer({ ...reader, customer: 'shop2' }),
        "JWT claim customer names another customer than the request's",
      ],
      [
        'a JWT whose instances claim is no list',
        () => bearer({ ...reader, instances: 'stage' }),
        'JWT claim instances must be an array of instance names',
      ],
      [
        'an unknown customer',
        () => ({ ...basicOf(shop1.basicLogin, shop1.basicPassword), host: 'shop9.api.example.test' }),
        "Unknown customer: the Host header's first label names no customer of this service",
      ],
      [
        'a Host outside the service',
        () => ({ ...basicOf(shop1.basicLogin, shop1.basicPassword), host: 'shop1.evil.test' }),
        "Unknown customer: the Host header's first label names no customer of this service",
      ],
      [
        'an unknown instance',
        () => {
          const sent = basicOf(shop1.basicLogin, shop1.basicPassword);
          return { ...sent, headers: { ...sent.headers, 'x-service-instance': 'elsewhere' } };
        },
        'Unknown instance: X-Service-Instance names no instance of this customer',
      ],
      [
        'a key limited to stage, sent for live',
        () => {
          const sent = signedBy(keys.shop1Stage['search:write']);
          return { ...sent, headers: { ...sent.headers, 'x-service-instance': 'live' } };
        },
        'Instance not allowed: this credential may not act on the instance named in X-Service-Instance',
      ],
      [
        'a JWT limited to stage, sent for live',
        () => {
          const sent = bearer({ ...reader, instances: ['stage'] });
          return { ...sent, headers: { ...sent.headers, 'x-service-instance': 'live' } };
        },
        'Instance not allowed: this credential may not act on the instance named in X-Service-Instance',
      ],
      [
        'a JWT limited to stage, without X-Service-Instance',
        () => bearer({ ...reader, instances: ['stage'] }),
        "Instance not allowed: this credential may not act on the customer's default instance; name one of its instances in " +
          'X-Service-Instance',
      ],
      [
        'a JWT limited to instances the customer does not have',
        () => bearer({ ...reader, instances: ['ghost'] }),
        'Instance not allowed: this credential may act on no instance of this customer',
      ],
    ];

    const answers: Array<{ rule: string; sent: Sent; text: string }> = [];

    it.each(RULES)('%s: 401 with its own message', async (rule, make, message) => {
      const sent = await make();
      const res = await http(`${t.url}${sent.body === undefined ? '/search-terms' : '/events'}`, {
        method: sent.body === undefined ? 'GET' : 'POST',
        headers: { host: sent.host ?? HOST, ...(sent.body === undefined ? {} : { 'content-type': 'application/json' }), ...sent.headers },
        body: sent.body,
      });
      answers.push({ rule, sent, text: JSON.stringify(res.body) });
      expect([res.status, res.body]).toEqual([401, { statusCode: 401, error: 'Unauthorized', message }]);
    });

    it('no 401 body shows a secret, a hash, a nonce, a password or a token that was sent', () => {
      expect(answers).toHaveLength(RULES.length);
      const shown = answers.flatMap(({ rule, sent, text }) =>
        sent.secrets.filter((s) => text.toLowerCase().includes(s.toLowerCase())).map((s) => `${rule}: ${s}`),
      );
      expect(shown).toEqual([]);
      // Every case sent something to hide but the one with no credentials at all.
      expect(answers.filter((a) => a.sent.secrets.length === 0).map((a) => a.rule)).toEqual(['no credentials']);
    });
  });

  it("never shows one customer's or instance's data in another's answers", async () => {
    const send = async (customer: string, secret: string, instance: string, phrase: string) => {
      const body = JSON.stringify({ events: [{ phrase, language: 'en', hits: 1 }] });
      const n = nonce();
      await http(`${t.url}/events`, {
        method: 'POST',
        headers: {
          host: `${customer}.api.example.test`,
          'content-type': 'application/json',
          'x-service-nonce': n,
          'x-service-hash': signRequest(secret, n, body),
          'x-service-instance': instance,
        },
        body,
      });
    };
    await send('shop1', keys.shop1['search:write'], 'live', 'only shop1 live');
    await send('shop1', keys.shop1['search:write'], 'stage', 'only shop1 stage');
    await send('shop2', keys.shop2['search:write'], 'live', 'only shop2 live');
    const terms = async (c: GeneratedCredentials, instance: string) =>
      JSON.stringify(
        (
          await http(`${t.url}/search-terms?_end=1000`, {
            headers: {
              host: `${c.customer}.api.example.test`,
              ...basicHeader(c.basicLogin, c.basicPassword),
              'x-service-instance': instance,
            },
          })
        ).body,
      );
    const s1live = await terms(shop1, 'live');
    const s1stage = await terms(shop1, 'stage');
    const s2live = await terms(shop2, 'live');
    expect([s1live.includes('only shop1 live'), s1live.includes('only shop1 stage'), s1live.includes('only shop2 live')]).toEqual([
      true,
      false,
      false,
    ]);
    expect([s1stage.includes('only shop1 stage'), s1stage.includes('only shop1 live')]).toEqual([true, false]);
    expect([s2live.includes('only shop2 live'), s2live.includes('only shop1')]).toEqual([true, false]);
  });
});
