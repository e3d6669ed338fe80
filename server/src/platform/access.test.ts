import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app.ts';
import { enforceAccess, registerAccessControl } from './access.ts';
import { HttpError } from './errors.ts';

describe('route access declarations', () => {
  it('a route registered without an access declaration stops startup', async () => {
    const ctx = await createTestApp();
    const app = Fastify();
    registerAccessControl(app, ctx.db);
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(/declares no access/);
    await app.close();
    await ctx.close();
  });

  it('every route of the real app declares its access', async () => {
    const ctx = await createTestApp();
    expect(ctx.app.registeredRoutes.length).toBeGreaterThan(5);
    for (const r of ctx.app.registeredRoutes) {
      expect(['public', 'login', 'user', 'moderator', 'admin']).toContain(r.access);
    }
    await ctx.close();
  });
});

describe('enforceAccess', () => {
  const user = (level: string, approved = 1) => ({
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
      provider: 'discord',
      created_at: '',
      updated_at: '',
      last_login: null,
    },
    level: level as 'viewer',
    tokenHash: 'h',
  });
  const status = (fn: () => void) => {
    try {
      fn();
      return 200;
    } catch (e) {
      return e instanceof HttpError ? e.statusCode : 500;
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
    expect(status(() => enforceAccess('moderator', user('user'), true))).toBe(403);
    expect(status(() => enforceAccess('moderator', user('admin'), true))).toBe(200);
    expect(status(() => enforceAccess('admin', user('moderator'), true))).toBe(403);
  });
});
