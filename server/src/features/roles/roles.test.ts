import {
  REALTIME_EVENTS,
  ROLE_SYNC_TEXTS,
  type RoleSyncState,
  type ServerUser,
  type SessionEnded,
} from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectClient, disconnected, listen, nextEvent } from '../../platform/realtime/testing.ts';
import { createSession } from '../../platform/sessions.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { buildUser } from '../../test/factories.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import {
  type FakeDiscordBot,
  type FakeGuild,
  startFakeDiscordBot,
} from '../../test/fake-discord-bot/index.ts';
import { EVENT_DEADLINE_MS } from '../../test/time-scale.ts';
import { listFolder, uploadFile } from '../files/test-helpers.ts';
import { join as joinTicTacToe } from '../games/tictactoe/test-helpers.ts';
import { findUserById } from '../users/index.ts';
import type { Reconciler } from './index.ts';
import { type ManualClock, manualClock, runFor, runUntil } from './test-helpers.ts';

/**
 * Issue 43 through discord.js's REST client against the fake Discord: sign-in by membership and roles,
 * the reconcile on the injected clock (the Server Members intent off), Discord failures that change
 * nothing, and the demotion brake.
 */

const GUILD = '480000000000000001';
const ADMIN_ID = '480000000000000099';
const ROLE = { mod: '481000000000000001', member: '481000000000000002', banned: '481000000000000003' };
const INTERVAL_MS = 10_000;

let discord: FakeDiscord;
let bot: FakeDiscordBot;
let guild: FakeGuild;
let ctx: TestContext;
let clock: ManualClock;
let reconciler: Reconciler | null = null;
let adminToken: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  discord = await startFakeDiscord();
  guild = {
    id: GUILD,
    name: 'The Guildhall Community',
    voiceChannels: [],
    members: [],
    roles: [
      { id: ROLE.mod, name: 'Mod', color: 0x2ecc71, position: 3 },
      { id: ROLE.member, name: 'Member', color: 0x3498db, position: 2 },
      { id: ROLE.banned, name: 'Banned', color: 0, position: 1 },
    ],
  };
  bot = await startFakeDiscordBot([guild]);
});
afterAll(async () => {
  await bot.close();
  await discord.close();
});

beforeEach(async () => {
  guild.members = [];
  bot.failGuildRoutes(null);
  clock = manualClock();
  ctx = await createTestApp(
    {
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_REDIRECT_URI: 'http://127.0.0.1:9/auth/discord/callback',
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
      DISCORD_BOT_TOKEN: bot.token,
      DISCORD_BOT_API_URL: bot.apiUrl,
      ADMIN_DISCORD_IDS: ADMIN_ID,
      ROLE_SYNC: 'on',
      ROLE_SYNC_GUILD_ID: GUILD,
      ROLE_SYNC_INTERVAL_SECONDS: String(INTERVAL_MS / 1000),
    },
    undefined,
    {
      features: ['auth', 'users', 'admin', 'roles', 'files', 'games/tictactoe'],
      clock,
      featureOptions: { roles: { observe: (r) => (reconciler = r) } },
    },
  );
  adminToken = await createSession(ctx.db, ADMIN_ID);
  await saveSettings({
    roleLevels: [
      { roleId: ROLE.mod, level: 'moderator' },
      { roleId: ROLE.member, level: 'user' },
    ],
    denyRoles: [ROLE.banned],
  });
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await ctx.close();
  reconciler = null;
});

const theReconciler = () => {
  if (!reconciler) throw new Error('the roles feature did not start');
  return reconciler;
};

async function saveSettings(body: object): Promise<RoleSyncState> {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: '/api/admin/role-sync',
    headers: bearer(adminToken),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function syncState(): Promise<RoleSyncState> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/admin/role-sync',
    headers: bearer(adminToken),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** The whole Discord sign-in as the browser walks it, as `id`. */
async function signInWithDiscord(id: string, username: string) {
  discord.setUser({ id, username });
  const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/discord/url' });
  const { url } = start.json<{ url: string }>();
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') ?? '');
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/discord',
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
}

const levelOf = async (id: string) => {
  const row = await findUserById(ctx.db, id);
  return row ? { level: row.access_level, approved: row.is_approved === 1 } : null;
};

const runFor10s = () => runFor(clock, theReconciler, INTERVAL_MS);

describe('sign-in by membership and roles (issue 43, point 1)', () => {
  it('a member with the mapped Mod role signs in and is a moderator at once', async () => {
    bot.addMember(GUILD, { id: '482000000000000001', username: 'modder', roles: [ROLE.member, ROLE.mod] });
    const res = await signInWithDiscord('482000000000000001', 'modder');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.access_level).toBe('moderator');
    expect(await levelOf('482000000000000001')).toEqual({ level: 'moderator', approved: true });
    // Through discord.js's REST client: the member lookup, on the configured base URL.
    expect(bot.log).toContain(`GET /api/v10/guilds/${GUILD}/members/482000000000000001`);
    // The member's settings page can say which role gave the level.
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/role-sync/me',
      headers: bearer(res.json().token),
    });
    expect(me.json().data.source).toMatchObject({ roleName: 'Mod', roleColor: 0x2ecc71, level: 'moderator' });
  });

  it("a non-member is refused with the server's name, never a raw error", async () => {
    // The server's name is known once the bot has read the server (a run, or the admin's role list).
    await runFor10s();
    const res = await signInWithDiscord('482000000000000002', 'stranger');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      code: 'NOT_GUILD_MEMBER',
      error: ROLE_SYNC_TEXTS.notMember('The Guildhall Community'),
    });
    expect(res.json().error).toContain('Join the server first');
  });

  it('a member with no mapped role is pending (the existing flow); a deny role is refused', async () => {
    bot.addMember(GUILD, { id: '482000000000000003', username: 'newbie', roles: [] });
    const pending = await signInWithDiscord('482000000000000003', 'newbie');
    expect(pending.statusCode).toBe(403);
    expect(pending.json().code).toBe('NOT_APPROVED');
    expect(await levelOf('482000000000000003')).toEqual({ level: 'viewer', approved: false });

    bot.addMember(GUILD, { id: '482000000000000004', username: 'troll', roles: [ROLE.mod, ROLE.banned] });
    const denied = await signInWithDiscord('482000000000000004', 'troll');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('ROLE_REFUSED');
  });
});

describe('member-facing: the server nickname and avatar (What to build)', () => {
  it('the member sees their server nickname and server avatar where they have one, as the server changes them', async () => {
    const id = '482000000000000031';
    const hash = 'a_0123456789abcdef0123456789abcdef';
    bot.addMember(GUILD, {
      id,
      username: 'nicky',
      roles: [ROLE.member],
      nick: 'Nicky of the Hall',
      serverAvatar: hash,
    });
    const signedIn = await signInWithDiscord(id, 'nicky');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const me = async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/role-sync/me',
        headers: bearer(signedIn.json().token),
      });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    // At sign-in already (the lookup that approved them carried both).
    expect((await me()).server).toMatchObject({
      nick: 'Nicky of the Hall',
      avatarUrl: `https://cdn.discordapp.com/guilds/${GUILD}/users/${id}/avatars/${hash}.gif?size=256`,
    });
    await runFor10s();
    expect((await me()).server?.guildName).toBe('The Guildhall Community');

    // Everyone sees the same face: their own account (the navigation bar), the admins' user list, and
    // the players of a game (the song requester is requesterOf's, music/present.test.ts).
    const serverAvatar = `https://cdn.discordapp.com/guilds/${GUILD}/users/${id}/avatars/${hash}.gif?size=256`;
    const validate = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/validate',
      headers: bearer(signedIn.json().token),
    });
    expect(validate.json().user).toMatchObject({
      server_nick: 'Nicky of the Hall',
      server_avatar_url: serverAvatar,
    });
    const listed = async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(adminToken) });
      expect(res.statusCode).toBe(200);
      return (res.json().data as ServerUser[]).find((u) => u.discord_id === id);
    };
    expect(await listed()).toMatchObject({ username: 'nicky', server_nick: 'Nicky of the Hall' });
    const game = await joinTicTacToe(ctx.app, signedIn.json().token);
    expect(game.body.game?.player1.username).toBe('Nicky of the Hall');

    // They clear both in Discord: the next run shows their account's own, everywhere.
    bot.addMember(GUILD, { id, username: 'nicky', roles: [ROLE.member] });
    await runFor10s();
    expect((await me()).server).toEqual({
      guildName: 'The Guildhall Community',
      nick: null,
      avatarUrl: null,
    });
    expect(await listed()).not.toHaveProperty('server_nick');
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/games/tic-tac-toe/${game.body.game?.id}`,
      headers: bearer(signedIn.json().token),
    });
    expect(again.json().game.player1.username).toBe('nicky');

    // A nickname again, then the sync switched off: nobody shows a server face any more.
    bot.addMember(GUILD, { id, username: 'nicky', roles: [ROLE.member], nick: 'Back Again' });
    await runFor10s();
    expect((await listed())?.server_nick).toBe('Back Again');
    await saveSettings({ enabled: false });
    expect(await listed()).not.toHaveProperty('server_nick');
  });
});

describe('staying current on the injected clock (point 2, intent off)', () => {
  it("removing the role drops the level within one 10 s interval, closes the member's sockets, and the audit says why; giving it back likewise", async () => {
    const id = '482000000000000011';
    bot.addMember(GUILD, { id, username: 'mia', roles: [ROLE.mod, ROLE.member] });
    const signedIn = await signInWithDiscord(id, 'mia');
    expect(signedIn.json().user.access_level).toBe('moderator');
    const token: string = signedIn.json().token;
    await runFor10s(); // a run with nothing to change
    const baseUrl = await listen(ctx.app);
    const timings: string[] = [];

    /** Changes the roles in the fake, moves the clock until the level follows, and waits for the socket's news. */
    const change = async (label: string, roles: string[], level: string) => {
      const socket = await connectClient(baseUrl, token);
      sockets.push(socket);
      const closed = disconnected(socket, EVENT_DEADLINE_MS);
      const ended = nextEvent<SessionEnded>(
        socket,
        REALTIME_EVENTS.sessionEnded,
        () => true,
        EVENT_DEADLINE_MS,
      );
      bot.setMemberRoles(GUILD, id, roles);
      const t0 = performance.now();
      const took = await runUntil(
        clock,
        theReconciler,
        async () => (await levelOf(id))?.level === level,
        INTERVAL_MS,
      );
      expect(took).toBeLessThanOrEqual(INTERVAL_MS); // within one interval, on the injected clock
      expect((await ended).code).toBe('ACCESS_CHANGED');
      expect(await closed).toBe('io server disconnect');
      timings.push(`${label}: ${took} ms of the clock, ${(performance.now() - t0).toFixed(1)} ms real`);
    };

    await change('role removed (down)', [ROLE.member], 'user');
    expect(await levelOf(id)).toEqual({ level: 'user', approved: true });
    const audit = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: bearer(adminToken),
    });
    const entry = audit.json().data.find((e: { action: string }) => e.action === 'user.role_sync');
    expect(entry).toMatchObject({ actor_name: 'Discord role sync', target_id: id });
    expect(entry.changes).toContainEqual({
      field: 'cause',
      before: null,
      after: 'role Mod removed in Discord; role Member in Discord gives user',
    });
    // The next request already sees the lower level.
    const validate = () =>
      ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) });
    expect((await validate()).json().user.access_level).toBe('user');

    await change('role given (up)', [ROLE.mod, ROLE.member], 'moderator');
    expect((await validate()).json().user.access_level).toBe('moderator');
    console.info(`[role sync, intent off, 10 s interval] role change → socket closed: ${timings.join('; ')}`);
  });

  it('leaving the server revokes access but keeps the account and its files; rejoining restores it', async () => {
    const id = '482000000000000012';
    bot.addMember(GUILD, { id, username: 'leo', roles: [ROLE.member] });
    const first = await signInWithDiscord(id, 'leo');
    expect(first.statusCode).toBe(200);
    const content = Buffer.from('leo keeps this file while away');
    const file = await uploadFile(ctx.app, first.json().token, 'leo.txt', content);
    const socket = await connectClient(await listen(ctx.app), first.json().token);
    sockets.push(socket);
    const ended = nextEvent<SessionEnded>(
      socket,
      REALTIME_EVENTS.sessionEnded,
      () => true,
      EVENT_DEADLINE_MS,
    );

    bot.removeMember(GUILD, id);
    await runFor10s();
    expect((await ended).code).toBe('AUTH_REQUIRED'); // access gone: the socket is told to sign out
    expect(await levelOf(id)).toEqual({ level: 'user', approved: false }); // row and level kept
    const validate = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/validate',
      headers: bearer(first.json().token),
    });
    expect(validate.statusCode).toBe(401); // sessions ended with the access
    // Signing in meanwhile is refused with the page's text.
    expect((await signInWithDiscord(id, 'leo')).json().code).toBe('NOT_GUILD_MEMBER');

    bot.addMember(GUILD, { id, username: 'leo', roles: [ROLE.member] });
    await runFor10s();
    expect(await levelOf(id)).toEqual({ level: 'user', approved: true });
    const back = await signInWithDiscord(id, 'leo');
    expect(back.statusCode).toBe(200);
    // Their file is still theirs, bytes and all.
    const files = await listFolder(ctx.app, back.json().token);
    expect(files.map((f) => [f.id, f.name])).toEqual([[file.id, 'leo.txt']]);
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/download/${file.id}`,
      headers: bearer(back.json().token),
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
  });

  it('a member approved by hand (no role gave the level) is restored when they come back', async () => {
    const hand = await buildUser(ctx.db, { access_level: 'moderator', username: 'handmade' });
    bot.addMember(GUILD, { id: hand.discord_id, username: 'handmade', roles: [] });
    await runFor10s();
    expect(await levelOf(hand.discord_id)).toEqual({ level: 'moderator', approved: true }); // pending policy: left alone
    bot.removeMember(GUILD, hand.discord_id);
    await runFor10s();
    expect(await levelOf(hand.discord_id)).toEqual({ level: 'moderator', approved: false });
    bot.addMember(GUILD, { id: hand.discord_id, username: 'handmade', roles: [] });
    await runFor10s();
    expect(await levelOf(hand.discord_id)).toEqual({ level: 'moderator', approved: true });
  });
});

describe('never lock out when Discord fails (point 3)', () => {
  it.each([
    ['missing-access', 'MISSING_ACCESS'],
    ['unknown-guild', 'UNKNOWN_GUILD'],
    ['server-error', 'DISCORD_ERROR'],
    ['rate-limited', 'RATE_LIMITED'],
  ] as const)(
    '%s: 0 level changes, the admin status names it, approved members still sign in; then it resumes',
    async (failure, code) => {
      const id = '482000000000000021';
      bot.addMember(GUILD, { id, username: 'steady', roles: [ROLE.mod] });
      expect((await signInWithDiscord(id, 'steady')).statusCode).toBe(200);
      bot.setMemberRoles(GUILD, id, []); // would be a demotion, if the sync could see it
      bot.failGuildRoutes(failure);
      for (let i = 0; i < 6; i += 1) await runFor10s(); // a minute of failures
      expect(await levelOf(id)).toEqual({ level: 'moderator', approved: true });
      const state = await syncState();
      expect(state.status.problem?.code).toBe(code);
      expect(state.status.problem?.message.length).toBeGreaterThan(10);
      // The sign-in lookup fails too: the member signs in at their stored level.
      const again = await signInWithDiscord(id, 'steady');
      expect(again.statusCode).toBe(200);
      expect(again.json().user.access_level).toBe('moderator');

      bot.failGuildRoutes(null);
      bot.setMemberRoles(GUILD, id, [ROLE.mod]);
      await runFor10s();
      expect((await syncState()).status.problem).toBeNull();
      expect((await syncState()).status.lastRunAt).not.toBeNull();
    },
  );
});

describe('Check now', () => {
  it('an admin who fixed the problem asks for a run now: the banner goes without waiting for the interval', async () => {
    const id = '482000000000000031';
    bot.addMember(GUILD, { id, username: 'patient', roles: [ROLE.mod] });
    expect((await signInWithDiscord(id, 'patient')).statusCode).toBe(200);
    bot.failGuildRoutes('missing-access');
    await runFor10s();
    expect((await syncState()).status.problem?.code).toBe('MISSING_ACCESS');
    // A long interval: without Check now the next run is 10 minutes of the clock away.
    await saveSettings({ intervalSeconds: 600 });
    await runFor10s();
    bot.failGuildRoutes(null);
    expect((await syncState()).status.problem?.code).toBe('MISSING_ACCESS');
    const before = theReconciler().runs();
    const checked = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/role-sync/check',
      headers: bearer(adminToken),
    });
    expect(checked.statusCode).toBe(200);
    const took = await runUntil(
      clock,
      theReconciler,
      async () => (await syncState()).status.problem === null,
      60_000,
    );
    expect(took).toBeLessThan(60_000); // a run of one member, not the 600 s interval
    expect(theReconciler().runs()).toBe(before + 1);
  });
});

describe('the demotion brake, admins and pins (point 4)', () => {
  it('a mapping change that would demote 6 members is held with a preview until an admin confirms it', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `48200000000000010${i}`);
    for (const [i, id] of ids.entries()) {
      bot.addMember(GUILD, { id, username: `mod${i}`, roles: [ROLE.mod] });
      expect((await signInWithDiscord(id, `mod${i}`)).statusCode).toBe(200);
    }
    // The env admin and a pinned moderator hold the Mod role too: never changed.
    bot.addMember(GUILD, { id: ADMIN_ID, username: 'root', roles: [] });
    const pinned = await buildUser(ctx.db, { access_level: 'admin', username: 'pinned-one' });
    bot.addMember(GUILD, { id: pinned.discord_id, username: 'pinned-one', roles: [] });
    const pin = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/role-sync/pins/${pinned.discord_id}`,
      headers: bearer(adminToken),
      payload: { pinned: true },
    });
    expect(pin.statusCode).toBe(200);
    await runFor10s();

    // Mod now gives only "user": six demotions, more than the brake's 5.
    const held = await saveSettings({
      roleLevels: [
        { roleId: ROLE.mod, level: 'user' },
        { roleId: ROLE.member, level: 'user' },
      ],
    });
    expect(held.held).toHaveLength(6);
    expect(held.held[0]).toMatchObject({
      fromLevel: 'moderator',
      toLevel: 'user',
      fromApproved: true,
      toApproved: true,
    });
    expect(held.held[0]?.reason).toContain('role mapping changed');
    for (const id of ids) expect(await levelOf(id)).toEqual({ level: 'moderator', approved: true });
    // Runs meanwhile keep holding them, with the preview the admin saw (the cause it gave included).
    await runFor10s();
    for (const id of ids) expect(await levelOf(id)).toEqual({ level: 'moderator', approved: true });
    expect((await syncState()).held.map((h) => h.reason)).toEqual(held.held.map((h) => h.reason));

    const confirm = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/role-sync/held/confirm',
      headers: bearer(adminToken),
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().data.held).toEqual([]);
    for (const id of ids) expect(await levelOf(id)).toEqual({ level: 'user', approved: true });
    expect(await levelOf(ADMIN_ID)).toEqual({ level: 'admin', approved: true });
    expect(await levelOf(pinned.discord_id)).toEqual({ level: 'admin', approved: true });
    const nothing = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/role-sync/held/confirm',
      headers: bearer(adminToken),
    });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('NOTHING_HELD');
  });

  it('five demotions go through; discarding a hold drops it and pauses the sync', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `48200000000000020${i}`);
    for (const [i, id] of ids.entries()) {
      bot.addMember(GUILD, { id, username: `m${i}`, roles: [ROLE.member] });
      expect((await signInWithDiscord(id, `m${i}`)).statusCode).toBe(200);
    }
    for (const id of ids.slice(0, 5)) bot.setMemberRoles(GUILD, id, []);
    await runFor10s();
    for (const id of ids.slice(0, 5)) expect(await levelOf(id)).toEqual({ level: 'viewer', approved: false });

    const state = await saveSettings({ roleLevels: [{ roleId: ROLE.mod, level: 'moderator' }] });
    expect(state.held).toHaveLength(0); // one demotion: under the brake
    expect(await levelOf(ids[5] ?? '')).toEqual({ level: 'viewer', approved: false });

    for (const id of ids) bot.setMemberRoles(GUILD, id, [ROLE.mod]);
    await runFor10s();
    for (const id of ids) expect(await levelOf(id)).toEqual({ level: 'moderator', approved: true });
    await saveSettings({ noRole: 'viewer', roleLevels: [] });
    const discard = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/role-sync/held/discard',
      headers: bearer(adminToken),
    });
    expect(discard.statusCode).toBe(200);
    expect(discard.json().data).toMatchObject({ held: [], status: { paused: true } });
    await runFor10s();
    for (const id of ids) expect(await levelOf(id)).toEqual({ level: 'moderator', approved: true });
  });
});

describe('settings and the role list', () => {
  it("lists the server's roles by name and colour from the bot's view, without @everyone", async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/role-sync/discord-roles',
      headers: bearer(adminToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { name: string; color: number }) => [r.name, r.color])).toEqual([
      ['Mod', 0x2ecc71],
      ['Member', 0x3498db],
      ['Banned', 0],
    ]);
    bot.failGuildRoutes('missing-access');
    const down = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/role-sync/discord-roles',
      headers: bearer(adminToken),
    });
    expect(down.statusCode).toBe(503);
    expect(down.json().code).toBe('DISCORD_UNAVAILABLE');
  });

  it('shows the env defaults, saves changes, and null puts a setting back to its default', async () => {
    const state = await syncState();
    expect(state.settings).toMatchObject({
      enabled: true,
      guildId: GUILD,
      noRole: 'pending',
      demotionBrake: 5,
      intervalSeconds: 10,
    });
    expect(state.status.memberEvents).toBe('off'); // ROLE_SYNC_MEMBER_EVENTS unset
    expect((await saveSettings({ demotionBrake: 2, noRole: 'viewer' })).settings).toMatchObject({
      demotionBrake: 2,
      noRole: 'viewer',
    });
    expect((await saveSettings({ demotionBrake: null })).settings.demotionBrake).toBe(5);
  });
});

describe('off by default', () => {
  it('without ROLE_SYNC the portal signs in as before and never asks the bot', async () => {
    const plain = await createTestApp(
      {
        DISCORD_CLIENT_ID: discord.clientId,
        DISCORD_CLIENT_SECRET: discord.clientSecret,
        DISCORD_REDIRECT_URI: 'http://127.0.0.1:9/auth/discord/callback',
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
        DISCORD_BOT_TOKEN: bot.token,
        DISCORD_BOT_API_URL: bot.apiUrl,
      },
      undefined,
      { features: ['auth', 'users', 'admin', 'roles'], clock: manualClock() },
    );
    try {
      const before = bot.log.length;
      const user = await buildUser(plain.db, { access_level: 'moderator' });
      discord.setUser({ id: user.discord_id, username: user.username });
      const start = await plain.app.inject({ method: 'GET', url: '/api/auth/discord/url' });
      const back = new URL(
        (await fetch(start.json().url, { redirect: 'manual' })).headers.get('location') ?? '',
      );
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/discord',
        payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.access_level).toBe('moderator');
      expect(bot.log.slice(before).filter((l) => l.includes(user.discord_id))).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
