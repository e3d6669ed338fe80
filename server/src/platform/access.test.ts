import { type AccessLevel, TEXTS } from '@guildhall/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsersTable } from '../db/schema.ts';
import { createTestApp, type TestContext } from '../test/app.ts';
import { buildSignedInUser } from '../test/factories.ts';
import { enforceAccess, type LevelOf, registerAccessControl } from './access.ts';
import { HttpError, registerErrorHandling } from './errors.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A bare app with only the access hook and the error envelope, and one probe route per level. */
async function probeApp(levelOf: LevelOf): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  registerAccessControl(app, ctx.db, levelOf);
  for (const access of ['public', 'login', 'user', 'moderator', 'admin'] as const) {
    app.get(`/probe/${access}`, { config: { access } }, async (req) => ({ level: req.auth?.level ?? null }));
  }
  await app.ready();
  return app;
}

const storedLevel: LevelOf = async (user) => user.access_level;

describe('route access declarations', () => {
  it('a route registered without an access declaration stops startup', async () => {
    const app = Fastify();
    registerAccessControl(app, ctx.db, storedLevel);
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(/declares no access/);
    await app.close();
  });

  it('the hook enforces each route its own declaration: 401 signed out, 403 below, 200 at or above', async () => {
    const app = await probeApp(storedLevel);
    const { token } = await buildSignedInUser(ctx.db, { access_level: 'user' });
    const as = (url: string, auth?: string) =>
      app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${auth}` } : {} });

    expect((await as('/probe/public')).statusCode).toBe(200);
    const signedOut = await as('/probe/login');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toMatchObject({ error: TEXTS.authRequired, code: 'AUTH_REQUIRED' });
    const badToken = await as('/probe/login', 'not-a-session');
    expect(badToken.statusCode).toBe(401);
    expect(badToken.json().error).toBe(TEXTS.sessionInvalid);

    expect((await as('/probe/login', token)).json()).toEqual({ level: 'user' });
    expect((await as('/probe/user', token)).statusCode).toBe(200);
    const below = await as('/probe/moderator', token);
    expect(below.statusCode).toBe(403);
    expect(below.json()).toMatchObject({ code: 'FORBIDDEN', error: TEXTS.insufficientLevel('moderator') });
    expect((await as('/probe/admin', token)).statusCode).toBe(403);
    await app.close();
  });

  it('acts with the level the injected resolver decides, not the stored one', async () => {
    const promoted: LevelOf = async (user: UsersTable): Promise<AccessLevel> =>
      user.username === 'promoted' ? 'admin' : user.access_level;
    const app = await probeApp(promoted);
    const { token } = await buildSignedInUser(ctx.db, { access_level: 'viewer', username: 'promoted' });
    const res = await app.inject({
      method: 'GET',
      url: '/probe/admin',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ level: 'admin' });
    await app.close();
  });

  it('refuses an unapproved account on every non-public route, whatever its level', async () => {
    const app = await probeApp(storedLevel);
    const { token } = await buildSignedInUser(ctx.db, { access_level: 'admin', is_approved: 0 });
    const res = await app.inject({
      method: 'GET',
      url: '/probe/login',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_APPROVED');
    await app.close();
  });
});

describe('enforceAccess', () => {
  const user = (level: AccessLevel, approved = 1) => ({
    user: {
      discord_id: '1',
      username: 'u',
      discriminator: null,
      avatar: null,
      email: null,
      global_name: null,
      notes: null,
      access_level: level,
      is_approved: approved,
      provider: 'discord' as const,
      created_at: '',
      updated_at: '',
      last_login: null,
      server_nick: null,
      server_avatar_url: null,
    },
    level,
    tokenHash: 'h',
  });
  /** The status enforceAccess leads to: 200 when it lets the call through. */
  const status = (fn: () => void) => {
    try {
      fn();
      return 200;
    } catch (e) {
      if (e instanceof HttpError) return e.statusCode;
      throw e;
    }
  };

  it('lets anyone through a public route', () => {
    expect(status(() => enforceAccess('public', null, false))).toBe(200);
  });
  it('is 401 signed out, 403 unapproved, 403 below the level, 200 at or above', () => {
    expect(status(() => enforceAccess('login', null, false))).toBe(401);
    expect(status(() => enforceAccess('login', user('admin', 0), true))).toBe(403);
    expect(status(() => enforceAccess('login', user('viewer'), true))).toBe(200);
    expect(status(() => enforceAccess('user', user('viewer'), true))).toBe(403);
    expect(status(() => enforceAccess('user', user('user'), true))).toBe(200);
    expect(status(() => enforceAccess('moderator', user('user'), true))).toBe(403);
    expect(status(() => enforceAccess('moderator', user('admin'), true))).toBe(200);
    expect(status(() => enforceAccess('admin', user('moderator'), true))).toBe(403);
    expect(status(() => enforceAccess('admin', user('admin'), true))).toBe(200);
  });
});
