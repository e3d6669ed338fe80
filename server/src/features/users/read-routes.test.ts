import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { buildUser } from '../../test/factories.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['auth', 'users', 'admin'] });
});
afterEach(async () => {
  await ctx.close();
});

describe('GET /api/users/public/approved', () => {
  it('lists only approved users with only id, username and level, to signed-in members', async () => {
    await buildUser(ctx.db, { username: 'pending-one', is_approved: 0, email: 'secret@example.com' });
    const { token } = await ctx.signIn({ email: 'me@example.com' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/public/approved',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Record<string, unknown>[];
    expect(data.some((u) => u.username === 'pending-one')).toBe(false);
    for (const u of data) expect(Object.keys(u).sort()).toEqual(['access_level', 'discord_id', 'username']);
    expect(res.body).not.toContain('@example.com');
  });

  it('is not readable signed out', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users/public/approved' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/users/check/:id', () => {
  it('answers approved and level; the full record only for yourself', async () => {
    const other = await buildUser(ctx.db, { access_level: 'moderator' });
    const me = await ctx.signIn();
    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/check/${me.userId}`,
      headers: bearer(me.token),
    });
    expect(mine.json().data).toMatchObject({
      approved: true,
      accessLevel: 'user',
      user: { discord_id: me.userId },
    });
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/check/${other.discord_id}`,
      headers: bearer(me.token),
    });
    expect(theirs.json().data).toEqual({ approved: true, accessLevel: 'moderator', user: null });
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/check/123',
      headers: bearer(me.token),
    });
    expect(unknown.json().data).toEqual({ approved: false, accessLevel: null, user: null });
  });

  it('rejects an oversized id with a 400', async () => {
    const me = await ctx.signIn();
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/check/${'9'.repeat(100)}`,
      headers: bearer(me.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('id is too long');
  });
});

describe('GET /api/users/:id', () => {
  it('returns your own record in the server shape with empty optional fields omitted', async () => {
    const me = await ctx.signIn({ email: null, avatar: null });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${me.userId}`,
      headers: bearer(me.token),
    });
    expect(res.statusCode).toBe(200);
    const user = res.json().data;
    expect(user).toMatchObject({ discord_id: me.userId, access_level: 'user', is_approved: true });
    expect('email' in user).toBe(false);
    expect('avatar' in user).toBe(false);
  });

  it("refuses someone else's record to a non-admin and 404s an unknown id for an admin", async () => {
    const other = await buildUser(ctx.db);
    const me = await ctx.signIn();
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${other.discord_id}`,
      headers: bearer(me.token),
    });
    expect(res.statusCode).toBe(403);
    const admin = await ctx.signIn({ access_level: 'admin' });
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/111111111111111111',
      headers: bearer(admin.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('User not found');
  });
});
