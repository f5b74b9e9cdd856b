import { BASIC, JWT_SECRET, basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('JWT and Basic authentication (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const listKeys = (headers: Record<string, string>) => http<unknown[]>(`${t.url}/secret`, { headers });

  describe('JWT', () => {
    it('accepts a valid token whose permissions (dot notation) include the route permission', async () => {
      const res = await listKeys(jwtHeader({ permissions: ['secret.read'] }));
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
    });

    it('refuses an expired token', async () => {
      const expired = jwtHeader({ permissions: ['secret.read'], exp: Math.floor(Date.now() / 1000) - 60 }, {});
      expect((await listKeys(expired)).status).toBe(401);
    });

    it('refuses a token without exp', async () => {
      expect((await listKeys(jwtHeader({ permissions: ['secret.read'] }, {}))).status).toBe(401);
    });

    it('refuses a token with a wrong signature', async () => {
      const forged = jwtHeader({ permissions: ['secret.read'] }, { expiresIn: 300 }, `${JWT_SECRET}-other`);
      expect((await listKeys(forged)).status).toBe(401);
    });

    it('refuses alg "none"', async () => {
      const header = b64url({ alg: 'none', typ: 'JWT' });
      const payload = b64url({ sub: 'x', permissions: ['secret.read'], exp: Math.floor(Date.now() / 1000) + 300 });
      const token = `${header}.${payload}.`;
      expect((await listKeys({ authorization: `Bearer ${token}` })).status).toBe(401);
    });

    it('answers 403 when the token lacks the permission', async () => {
      const res = await listKeys(jwtHeader({ permissions: ['search.read'] }));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, message: 'This credential lacks the permission secret:read' });
    });

    it('refuses a customer claim of another customer', async () => {
      expect((await listKeys(jwtHeader({ permissions: ['secret.read'], customer: 'other-shop' }))).status).toBe(401);
      expect((await listKeys(jwtHeader({ permissions: ['secret.read'], customer: 'demo' }))).status).toBe(200);
    });

    it('narrows instances with the instances claim', async () => {
      const token = jwtHeader({ permissions: ['secret.read'], instances: ['stage'] });
      expect((await listKeys(token)).status).toBe(401); // default instance "live" is not allowed
      expect((await listKeys({ ...token, 'x-service-instance': 'stage' })).status).toBe(200);
    });

    it('refuses any token, naming why, when the service has no JWT key', async () => {
      const without = await startApp({ SERVICE_JWT_SECRET: '' });
      try {
        const res = await http(`${without.url}/secret`, { headers: jwtHeader({ permissions: ['secret.read'] }) });
        expect([res.status, res.body]).toEqual([
          401,
          { statusCode: 401, error: 'Unauthorized', message: 'Bearer tokens are not accepted: the service has no JWT key configured' },
        ]);
      } finally {
        await without.close();
      }
    });

    it('cannot create a key with permissions the token lacks', async () => {
      const res = await http(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...jwtHeader({ permissions: ['secret.write'] }), 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'x', preset: 'importer' }),
      });
      expect(res.status).toBe(403);
    });
  });

  describe('Basic', () => {
    it('accepts the instance credentials with every permission', async () => {
      expect((await listKeys(basicHeader())).status).toBe(200);
      const created = await http<{ permissions: string[]; secret: string }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'importer', preset: 'importer' }),
      });
      expect(created.status).toBe(201);
      expect(created.body.permissions).toEqual(['persistence:write', 'search:write']);
      expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses a wrong password and a wrong login', async () => {
      expect((await listKeys(basicHeader(BASIC.login, 'wrong-password'))).status).toBe(401);
      expect((await listKeys(basicHeader('someone', BASIC.password))).status).toBe(401);
    });
  });

  describe('API keys', () => {
    it('lists keys without their secrets and revokes them', async () => {
      const created = await http<{ id: string; secret: string; createdAt: string }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'to revoke', permissions: ['search:read'] }),
      });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'description', 'id', 'permissions', 'secret']);
      const list = await listKeys(basicHeader());
      expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
      expect(list.body).toContainEqual({
        id: created.body.id,
        description: 'to revoke',
        permissions: ['search:read'],
        createdAt: created.body.createdAt,
      });
      expect((await http(`${t.url}/secret/${created.body.id}`, { method: 'DELETE', headers: basicHeader() })).status).toBe(200);
      expect((await http(`${t.url}/secret/${created.body.id}`, { method: 'DELETE', headers: basicHeader() })).status).toBe(404);
      expect((await listKeys(basicHeader())).body).not.toContainEqual(expect.objectContaining({ id: created.body.id }));
    });

    it.each([
      [{ permissions: ['search:read'] }, 'description'],
      [{ description: 'x', permissions: ['search:reed'] }, 'search:reed'],
      [{ description: 'x' }, 'permissions or preset'],
      [{ description: 'x', preset: 'admin' }, 'preset'],
    ])('answers 400 naming the problem for %p', async (payload, named) => {
      const res = await http<{ message: string | string[] }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(named);
    });
  });
});
