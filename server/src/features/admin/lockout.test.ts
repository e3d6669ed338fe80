import { ADMIN_TEXTS, DEMO_USER_ID, TEXTS } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, TEST_ACCESS_CODE, type TestContext } from '../../test/app.ts';
import { buildUser, snowflake } from '../../test/factories.ts';
import { CLI_ACTOR, updateUser } from './service.ts';

// "No one can lock the community out": the last real admin stays, and in setup mode the access-code
// identity (then the only admin) stays approved. Each test starts from a fresh database.
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['auth', 'users', 'admin'] });
});
afterEach(() => ctx.close());

const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(token), payload });

async function demoToken(): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/access-code',
    payload: { code: TEST_ACCESS_CODE },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

describe('the last admin', () => {
  it('cannot be lowered, unapproved or removed by another admin… until a second admin exists', async () => {
    const a = await ctx.signIn({ access_level: 'admin', username: 'alpha' });
    // A second admin is needed to even attempt removing alpha (self-removal has its own rule).
    const b = await ctx.signIn({ access_level: 'admin', username: 'beta' });
    expect((await as(a.token, 'PUT', `/api/users/${b.userId}`, { access_level: 'user' })).statusCode).toBe(
      200,
    );
    // Now alpha is the last admin: beta (a user now) cannot act, and alpha cannot lower themselves.
    const lower = await as(a.token, 'PUT', `/api/users/${a.userId}`, { access_level: 'moderator' });
    expect(lower.statusCode).toBe(409);
    expect(lower.json()).toMatchObject({ error: ADMIN_TEXTS.lastAdmin, code: 'LAST_ADMIN' });
    const unapprove = await as(a.token, 'PUT', `/api/users/${a.userId}`, { is_approved: false });
    expect(unapprove.statusCode).toBe(400); // self rule first: cannot remove yourself
    expect(unapprove.json().error).toBe(TEXTS.cannotRemoveSelf);
  });

  it('cannot be removed or unapproved through another identity (the demo identity stored as admin)', async () => {
    const real = await buildUser(ctx.db, { access_level: 'admin', username: 'only-admin' });
    await ctx.db
      .updateTable('users')
      .set({ access_level: 'admin' })
      .where('discord_id', '=', DEMO_USER_ID)
      .execute();
    const demo = await demoToken();
    const del = await as(demo, 'DELETE', `/api/users/${real.discord_id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe(ADMIN_TEXTS.lastAdmin);
    const unapprove = await as(demo, 'PUT', `/api/users/${real.discord_id}`, { is_approved: false });
    expect(unapprove.statusCode).toBe(409);
    const lower = await as(demo, 'PUT', `/api/users/${real.discord_id}`, { access_level: 'viewer' });
    expect(lower.statusCode).toBe(409);
  });

  it('can be lowered once another admin exists, and a pending admin does not count', async () => {
    const a = await ctx.signIn({ access_level: 'admin', username: 'alpha' });
    const b = await buildUser(ctx.db, { access_level: 'admin', username: 'pending-admin', is_approved: 0 });
    expect((await as(a.token, 'PUT', `/api/users/${a.userId}`, { access_level: 'user' })).statusCode).toBe(
      409,
    );
    expect((await as(a.token, 'PUT', `/api/users/${b.discord_id}`, { is_approved: true })).statusCode).toBe(
      200,
    );
    expect((await as(a.token, 'PUT', `/api/users/${a.userId}`, { access_level: 'user' })).statusCode).toBe(
      200,
    );
  });
});

describe('setup mode (no real admin: the access-code identity acts as admin)', () => {
  it('lets the demo identity add the first real admin, which ends setup mode at once', async () => {
    const demo = await demoToken();
    expect((await as(demo, 'GET', '/api/users')).statusCode).toBe(200);
    const id = snowflake();
    const add = await as(demo, 'POST', '/api/users', {
      discord_id: id,
      username: 'founder',
      access_level: 'admin',
    });
    expect(add.statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json().setupMode).toBe(false);
    // The demo identity is back to its stored level (viewer): no more admin API.
    expect((await as(demo, 'GET', '/api/users')).statusCode).toBe(403);
  });

  it('refuses unapproving the demo identity while it is the only way in', async () => {
    const demo = await demoToken();
    const res = await as(demo, 'PUT', `/api/users/${DEMO_USER_ID}`, { is_approved: false });
    expect(res.statusCode).toBe(400); // it is also yourself
    // Only the host's command line can try it from another identity; the setup-mode rule answers.
    await expect(updateUser(ctx.db, CLI_ACTOR, DEMO_USER_ID, { is_approved: false })).rejects.toMatchObject({
      statusCode: 409,
      code: 'SETUP_MODE_LOCKOUT',
      message: ADMIN_TEXTS.setupModeDemoLockout,
    });
  });

  it('never lets the demo identity be removed (it would come back at the next start)', async () => {
    const demo = await demoToken();
    const self = await as(demo, 'DELETE', `/api/users/${DEMO_USER_ID}`);
    expect(self.json().error).toBe(TEXTS.cannotRemoveSelf);
    const admin = await ctx.signIn({ access_level: 'admin' });
    const res = await as(admin.token, 'DELETE', `/api/users/${DEMO_USER_ID}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(ADMIN_TEXTS.demoNotRemovable);
  });

  it('lets a real admin unapprove the demo identity, which disables the access code', async () => {
    const demo = await demoToken();
    const admin = await ctx.signIn({ access_level: 'admin' });
    const res = await as(admin.token, 'PUT', `/api/users/${DEMO_USER_ID}`, { is_approved: false });
    expect(res.statusCode).toBe(200);
    expect((await as(demo, 'GET', '/api/auth/validate')).statusCode).toBe(401); // sessions ended
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/access-code',
      payload: { code: TEST_ACCESS_CODE },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toBe(TEXTS.notApproved);
  });
});
