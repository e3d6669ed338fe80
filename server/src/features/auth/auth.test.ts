import net from 'node:net';
import { DEMO_USER_ID, TEXTS } from '@guildhall/common';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, leaveSetupMode, TEST_ACCESS_CODE, type TestContext } from '../../test/app.ts';
import { buildUser } from '../../test/factories.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import { findUserById } from '../users/index.ts';

let discord: FakeDiscord;
let ctx: TestContext;

beforeAll(async () => {
  discord = await startFakeDiscord();
});
afterAll(async () => {
  await discord.close();
});
beforeEach(async () => {
  ctx = await createTestApp({
    DISCORD_CLIENT_ID: discord.clientId,
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_REDIRECT_URI: 'http://127.0.0.1:9/auth/discord/callback',
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
  });
});
afterEach(async () => {
  await ctx.close();
});

/** Walks the browser's part of the flow: get the URL, follow Discord's redirect, read code and state. */
async function authorize(): Promise<{ code: string; state: string; url: URL }> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/discord/url' });
  expect(res.statusCode).toBe(200);
  const { url, state } = res.json<{ url: string; state: string }>();
  const redirect = await fetch(url, { redirect: 'manual' });
  const back = new URL(redirect.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe(state);
  return { code: back.searchParams.get('code') ?? '', state, url: new URL(url) };
}

function signInDiscord(code: string, state: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/discord', payload: { code, state } });
}

describe('GET /api/auth/discord/url', () => {
  it('issues a one-time state of at least 128 bits with a PKCE S256 challenge', async () => {
    const { url, state } = await authorize();
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('client_id')).toBe(discord.clientId);
    expect(url.searchParams.get('scope')).toBe('identify email');
    expect(url.searchParams.has('client_secret')).toBe(false);
  });

  it('answers with the spec text when OAuth is not configured', async () => {
    const bare = await createTestApp({}, undefined, { features: ['auth', 'users', 'admin'] });
    const res = await bare.app.inject({ method: 'GET', url: '/api/auth/discord/url' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: TEXTS.oauthNotConfigured });
    const cfg = await bare.app.inject({ method: 'GET', url: '/api/config' });
    expect(cfg.json()).toMatchObject({ oauthConfigured: false });
    await bare.close();
  });
});

describe('POST /api/auth/discord', () => {
  it('signs in an approved user and returns the spec sign-in response without Discord tokens', async () => {
    const user = await buildUser(ctx.db, { username: 'alice', access_level: 'moderator' });
    discord.setUser({ id: user.discord_id, username: 'alice2', email: 'a@example.com', avatar: 'a_hash' });
    const { code, state } = await authorize();
    const res = await signInDiscord(code, state);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'success', 'token', 'user']);
    expect(body.user).toMatchObject({
      discord_id: user.discord_id,
      username: 'alice2',
      email: 'a@example.com',
      avatar: 'a_hash',
      access_level: 'moderator',
    });
    expect(res.body).not.toContain('access_token');
    const validate = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/validate',
      headers: bearer(body.token),
    });
    expect(validate.statusCode).toBe(200);
    expect((await findUserById(ctx.db, user.discord_id))?.last_login).toBeTruthy();
  });

  it('refuses an unknown state, a reused state and an expired state', async () => {
    const user = await buildUser(ctx.db);
    discord.setUser({ id: user.discord_id, username: user.username });
    const unknown = await signInDiscord('whatever', 'not-a-state-we-issued');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('INVALID_STATE');

    const { code, state } = await authorize();
    expect((await signInDiscord(code, state)).statusCode).toBe(200);
    const reused = await signInDiscord(code, state);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('INVALID_STATE');

    const second = await authorize();
    await ctx.db
      .updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const expired = await signInDiscord(second.code, second.state);
    expect(expired.statusCode).toBe(400);
  });

  it('rejects a code Discord refuses (reused code) with Discord authentication failed', async () => {
    const user = await buildUser(ctx.db);
    discord.setUser({ id: user.discord_id, username: user.username });
    const first = await authorize();
    expect((await signInDiscord(first.code, first.state)).statusCode).toBe(200);
    // A fresh state but the already-redeemed code: Discord says invalid_grant.
    const second = await authorize();
    const res = await signInDiscord(first.code, second.state);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(TEXTS.discordAuthFailed);
  });

  it('refuses an unapproved account with the spec text, no session, and records it as pending', async () => {
    discord.setUser({ id: '210000000000000009', username: 'stranger' });
    const { code, state } = await authorize();
    const res = await signInDiscord(code, state);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: TEXTS.notApproved, code: 'NOT_APPROVED' });
    const row = await findUserById(ctx.db, '210000000000000009');
    expect(row).toMatchObject({ is_approved: 0, access_level: 'viewer', username: 'stranger' });
    const sessions = await ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', '210000000000000009')
      .execute();
    expect(sessions).toHaveLength(0);
  });

  it('bootstraps ADMIN_DISCORD_IDS as approved admins', async () => {
    const withAdmin = await createTestApp({
      ADMIN_DISCORD_IDS: '175928847299117063',
    });
    const row = await findUserById(withAdmin.db, '175928847299117063');
    expect(row).toMatchObject({ access_level: 'admin', is_approved: 1 });
    const cfg = await withAdmin.app.inject({ method: 'GET', url: '/api/config' });
    expect(cfg.json()).toMatchObject({ setupMode: false });
    await withAdmin.close();
  });

  it('gives up on a Discord that never answers after DISCORD_SIGNIN_TIMEOUT_MS, with Discord authentication failed', async () => {
    // Accepts the token request's connection and never answers (a stalled network path to Discord).
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      held.add(socket);
      socket.on('close', () => held.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const slow = await createTestApp({
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_REDIRECT_URI: 'http://127.0.0.1:9/auth/discord/callback',
      DISCORD_API_URL: `http://127.0.0.1:${port}/api`,
      DISCORD_SIGNIN_TIMEOUT_MS: '200',
    });
    try {
      expect(slow.config.auth.discord.timeoutMs).toBe(200);
      const { state } = (await slow.app.inject({ method: 'GET', url: '/api/auth/discord/url' })).json();
      const res = await slow.app.inject({
        method: 'POST',
        url: '/api/auth/discord',
        payload: { code: 'x', state },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(TEXTS.discordAuthFailed);
    } finally {
      await slow.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it.each([
    [{}, 'code is required'],
    [{ code: 'x' }, 'state is required'],
    [{ code: 5, state: 'x' }, 'code'],
    [{ code: 'x'.repeat(600), state: 'x' }, 'code is too long'],
    [{ code: 'x', state: 'y'.repeat(300) }, 'state is too long'],
  ])('rejects bad input %j with a 400 naming the field', async (payload, text) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/discord', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().error).toContain(text);
  });

  it('rejects a malformed JSON body with a 400', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/discord',
      headers: { 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Request body is not valid JSON');
  });
});

describe('POST /api/auth/access-code', () => {
  const signIn = (code: unknown, ip = '10.0.0.1') =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/access-code', payload: { code }, remoteAddress: ip });

  it('signs in as the demo identity with a real session; its level comes from its row', async () => {
    await leaveSetupMode(ctx);
    const res = await signIn(TEST_ACCESS_CODE);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, user: { discord_id: DEMO_USER_ID, access_level: 'viewer' } });
    await ctx.db
      .updateTable('users')
      .set({ access_level: 'moderator' })
      .where('discord_id', '=', DEMO_USER_ID)
      .execute();
    const v = await ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(body.token) });
    expect(v.json().user.access_level).toBe('moderator');
  });

  it('makes the demo identity admin in setup mode (no admin exists)', async () => {
    const res = await signIn(TEST_ACCESS_CODE);
    expect(res.json().user.access_level).toBe('admin');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json().setupMode).toBe(true);
  });

  it('says Invalid access code for a wrong code', async () => {
    const res = await signIn('wrong-code');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(TEXTS.invalidAccessCode);
  });

  it('refuses when the demo identity is not approved', async () => {
    await ctx.db
      .updateTable('users')
      .set({ is_approved: 0 })
      .where('discord_id', '=', DEMO_USER_ID)
      .execute();
    const res = await signIn(TEST_ACCESS_CODE);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(TEXTS.notApproved);
  });

  it('blocks an address after 10 failures in 15 minutes with 429 and Retry-After, others unaffected', async () => {
    for (let i = 0; i < 10; i += 1) expect((await signIn(`bad-${i}`, '10.9.9.9')).statusCode).toBe(401);
    const blocked = await signIn(TEST_ACCESS_CODE, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(blocked.json().error).toBe(`Rate limit exceeded. Please try again after ${retryAfter} seconds`);
    expect((await signIn(TEST_ACCESS_CODE, '10.9.9.10')).statusCode).toBe(200);
  });

  it.each([
    [{}, 'code is required'],
    [{ code: '' }, 'code is required'],
    [{ code: 123 }, 'code'],
    [{ code: 'x'.repeat(300) }, 'code is too long'],
  ])('rejects bad input %j with a 400', async (payload, text) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/access-code', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(text);
  });
});

describe('sessions', () => {
  it('validate needs a token; a garbage or oversized token is a 401, never a 500', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/auth/validate' });
    expect(none.statusCode).toBe(401);
    for (const token of ['garbage', 'x'.repeat(5000)]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
    }
  });

  it('stores only a hash of the token', async () => {
    const { token } = await ctx.signIn();
    const rows = await ctx.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('logout revokes the session server-side', async () => {
    const { token } = await ctx.signIn();
    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
  });

  it('an expired session is refused', async () => {
    const { token } = await ctx.signIn();
    await ctx.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .execute();
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) })).statusCode,
    ).toBe(401);
  });

  it('a removed, unapproved or lowered user is affected on the very next request', async () => {
    const lowered = await ctx.signIn({ access_level: 'admin' });
    const get = (token: string, url: string) =>
      ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect((await get(lowered.token, `/api/users/${lowered.userId}`)).statusCode).toBe(200);
    await ctx.db
      .updateTable('users')
      .set({ access_level: 'viewer' })
      .where('discord_id', '=', lowered.userId)
      .execute();
    expect((await get(lowered.token, '/api/auth/validate')).json().user.access_level).toBe('viewer');

    const unapproved = await ctx.signIn();
    await ctx.db
      .updateTable('users')
      .set({ is_approved: 0 })
      .where('discord_id', '=', unapproved.userId)
      .execute();
    const r = await get(unapproved.token, '/api/auth/validate');
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toBe(TEXTS.notApproved);

    const removed = await ctx.signIn();
    await ctx.db.deleteFrom('users').where('discord_id', '=', removed.userId).execute();
    expect((await get(removed.token, '/api/auth/validate')).statusCode).toBe(401);
  });
});
