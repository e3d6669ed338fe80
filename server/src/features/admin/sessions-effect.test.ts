import { REALTIME_EVENTS, type SessionEnded, TEXTS } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, disconnected, listen, nextEvent } from '../../platform/realtime/testing.ts';
import { bearer, createTestApp, leaveSetupMode, type TestContext } from '../../test/app.ts';
import { snowflake } from '../../test/factories.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import { EVENT_DEADLINE_MS } from '../../test/time-scale.ts';

// What an admin change does beyond the call: approving lets the account in on its next attempt,
// removing or unapproving ends its sessions, lowering limits them on the very next request.
let ctx: TestContext;
let discord: FakeDiscord;
let admin: { token: string; userId: string };

beforeAll(async () => {
  discord = await startFakeDiscord();
  ctx = await createTestApp({
    DISCORD_CLIENT_ID: discord.clientId,
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_REDIRECT_URI: 'http://localhost:5173/auth/discord/callback',
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
  });
  await leaveSetupMode(ctx);
  admin = await ctx.signIn({ access_level: 'admin' });
});
afterAll(async () => {
  await ctx.close();
  await discord.close();
});

/** The whole Discord sign-in as the browser does it, against the fake Discord. */
async function discordSignIn(id: string, username: string) {
  discord.setUser({ id, username });
  const { url, state } = (await ctx.app.inject({ method: 'GET', url: '/api/auth/discord/url' })).json();
  const redirect = await fetch(url, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code');
  return ctx.app.inject({ method: 'POST', url: '/api/auth/discord', payload: { code, state } });
}

const asAdmin = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(admin.token), payload });
const validate = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) });

describe('approval', () => {
  it('a pending Discord account is refused, then signs in right after an admin approves it', async () => {
    const id = snowflake();
    const first = await discordSignIn(id, 'newcomer');
    expect(first.statusCode).toBe(403);
    expect(first.json().error).toBe(TEXTS.notApproved);

    const list = (await asAdmin('GET', '/api/users')).json().data as {
      discord_id: string;
      is_approved: boolean;
    }[];
    expect(list.find((u) => u.discord_id === id)).toMatchObject({ is_approved: false });

    expect((await asAdmin('PUT', `/api/users/${id}`, { is_approved: true })).statusCode).toBe(200);
    const second = await discordSignIn(id, 'newcomer');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ success: true, user: { discord_id: id, is_approved: true } });
    expect((await validate(second.json().token)).statusCode).toBe(200);
  });
});

describe('removal and lowering', () => {
  it('removing a user ends their sessions at once', async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    expect((await validate(member.token)).statusCode).toBe(200);
    const res = await asAdmin('DELETE', `/api/users/${member.userId}`);
    expect(res.json().data.sessions_ended).toBe(1);
    expect((await validate(member.token)).statusCode).toBe(401);
  });

  it('a removed user who signs in with Discord again is pending, not back in', async () => {
    const id = snowflake();
    await asAdmin('PUT', `/api/users/${id}`, { is_approved: true }); // 404: not known yet
    await discordSignIn(id, 'returner');
    await asAdmin('PUT', `/api/users/${id}`, { is_approved: true });
    expect((await discordSignIn(id, 'returner')).statusCode).toBe(200);
    await asAdmin('DELETE', `/api/users/${id}`);
    expect((await discordSignIn(id, 'returner')).statusCode).toBe(403);
  });

  it('unapproving a user ends their sessions', async () => {
    const member = await ctx.signIn({ access_level: 'moderator' });
    await asAdmin('PUT', `/api/users/${member.userId}`, { is_approved: false });
    expect((await validate(member.token)).statusCode).toBe(401);
  });

  it('lowering an admin takes their admin access away on their next request', async () => {
    const other = await ctx.signIn({ access_level: 'admin' });
    const before = await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(other.token) });
    expect(before.statusCode).toBe(200);
    await asAdmin('PUT', `/api/users/${other.userId}`, { access_level: 'viewer' });
    const after = await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(other.token) });
    expect(after.statusCode).toBe(403);
    // Still signed in, now as a viewer.
    expect((await validate(other.token)).json().user.access_level).toBe('viewer');
  });

  it("a new level reaches the member's open sockets at once: told ACCESS_CHANGED and closed, up as well as down", async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    const baseUrl = await listen(ctx.app);
    for (const level of ['moderator', 'viewer'] as const) {
      const socket = await connectClient(baseUrl, member.token);
      const ended = nextEvent<SessionEnded>(
        socket,
        REALTIME_EVENTS.sessionEnded,
        () => true,
        EVENT_DEADLINE_MS,
      );
      const closed = disconnected(socket, EVENT_DEADLINE_MS);
      expect((await asAdmin('PUT', `/api/users/${member.userId}`, { access_level: level })).statusCode).toBe(
        200,
      );
      expect((await ended).code).toBe('ACCESS_CHANGED');
      expect(await closed).toBe('io server disconnect');
      // Not signed out: the same session, at the new level.
      expect((await validate(member.token)).json().user.access_level).toBe(level);
    }
    // A change of name only leaves the sockets alone.
    const socket = await connectClient(baseUrl, member.token);
    const ended = nextEvent(socket, REALTIME_EVENTS.sessionEnded, () => true, 500).catch(() => 'none');
    await asAdmin('PUT', `/api/users/${member.userId}`, { username: 'renamed' });
    expect(await ended).toBe('none');
    expect(socket.connected).toBe(true);
    socket.close();
  });
});
