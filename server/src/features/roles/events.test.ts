import { randomBytes } from 'node:crypto';
import { REALTIME_EVENTS, type RoleSyncState, type SessionEnded } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, disconnected, listen, nextEvent } from '../../platform/realtime/testing.ts';
import { createSession } from '../../platform/sessions.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { buildUser } from '../../test/factories.ts';
import {
  type FakeDiscordBot,
  type FakeGuild,
  startFakeDiscordBot,
} from '../../test/fake-discord-bot/index.ts';
import { deadline, EVENT_DEADLINE_MS } from '../../test/time-scale.ts';
import { listFolder, uploadFile } from '../files/test-helpers.ts';
import { findUserById } from '../users/index.ts';
import type { Reconciler } from './index.ts';
import { type ManualClock, manualClock, runFor } from './test-helpers.ts';

/**
 * Issue 43 with the music bot's gateway: member events (ROLE_SYNC_MEMBER_EVENTS, the privileged Server
 * Members intent) applied through the reconcile's own code, the 4014 refusal as an admin-visible problem,
 * and, on two instances sharing PostgreSQL, one reconcile per deployment (on the bot holder).
 */

const GUILD = '490000000000000001';
const ADMIN_ID = '490000000000000099';
const ROLE = { mod: '491000000000000001', member: '491000000000000002' };
const INTERVAL_MS = 10_000;
const FEATURES = ['auth', 'users', 'admin', 'roles', 'music'];

let bot: FakeDiscordBot;
const guild: FakeGuild = {
  id: GUILD,
  name: 'The Guildhall Community',
  voiceChannels: [],
  members: [],
  roles: [
    { id: ROLE.mod, name: 'Mod', color: 0x2ecc71, position: 3 },
    { id: ROLE.member, name: 'Member', color: 0x3498db, position: 2 },
  ],
};
const contexts: TestContext[] = [];
/** What each change took, from the fake Discord's event to the member's socket hearing of it (printed). */
const timings: string[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  bot = await startFakeDiscordBot([guild]);
});
afterAll(async () => {
  await bot.close();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  for (const c of contexts.splice(0).reverse()) await c.close();
  guild.members = [];
  bot.allowMembersIntent(false);
});

const env = (extra: Record<string, string> = {}) => ({
  DISCORD_BOT_TOKEN: bot.token,
  DISCORD_BOT_API_URL: bot.apiUrl,
  MUSIC_DEFAULT_GUILD_ID: GUILD,
  ADMIN_DISCORD_IDS: ADMIN_ID,
  ROLE_SYNC: 'on',
  ROLE_SYNC_GUILD_ID: GUILD,
  ROLE_SYNC_INTERVAL_SECONDS: String(INTERVAL_MS / 1000),
  ...extra,
});

async function saveMapping(ctx: TestContext): Promise<void> {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: '/api/admin/role-sync',
    headers: bearer(await createSession(ctx.db, ADMIN_ID)),
    payload: {
      roleLevels: [
        { roleId: ROLE.mod, level: 'moderator' },
        { roleId: ROLE.member, level: 'user' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function syncState(ctx: TestContext): Promise<RoleSyncState> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/admin/role-sync',
    headers: bearer(await createSession(ctx.db, ADMIN_ID)),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

const levelOf = async (ctx: TestContext, id: string) => (await findUserById(ctx.db, id))?.access_level;

const roleSyncAudits = async (ctx: TestContext, id: string) =>
  ctx.db
    .selectFrom('admin_audit')
    .selectAll()
    .where('action', '=', 'user.role_sync')
    .where('target_id', '=', id)
    .execute();

/**
 * A member already in the server before the test's bot session (no GUILD_MEMBER_ADD: a test counting
 * events counts only its own).
 */
const joinedBefore = (member: FakeGuild['members'][number]) => guild.members.push(member);

/** A moderator by their Mod role, known to the sync after one run (so losing Mod demotes them). */
async function moderator(ctx: TestContext, clock: ManualClock, reconciler: () => Reconciler) {
  const user = await buildUser(ctx.db, { access_level: 'moderator', username: 'mia' });
  joinedBefore({ id: user.discord_id, username: 'mia', roles: [ROLE.mod, ROLE.member] });
  await runFor(clock, reconciler, INTERVAL_MS);
  expect(await levelOf(ctx, user.discord_id)).toBe('moderator');
  return user;
}

describe('member events on the bot holder (ROLE_SYNC_MEMBER_EVENTS=on)', () => {
  it("every level change reaches the member's sockets at once, without a run: down, up, leaving (files kept), rejoining", async () => {
    bot.allowMembersIntent(true);
    const clock = manualClock();
    let reconciler: Reconciler | null = null;
    const ctx = await createTestApp(env({ ROLE_SYNC_MEMBER_EVENTS: 'on' }), undefined, {
      features: [...FEATURES, 'files'],
      clock,
      featureOptions: { roles: { observe: (r) => (reconciler = r) } },
    });
    contexts.push(ctx);
    const theReconciler = () => reconciler as unknown as Reconciler;
    await saveMapping(ctx);
    // The bot's READY triggers one run.
    await eventually(() => expect(theReconciler().runs()).toBeGreaterThanOrEqual(1));
    const user = await moderator(ctx, clock, theReconciler);
    const id = user.discord_id;
    const runs = theReconciler().runs();
    const baseUrl = await listen(ctx.app);
    const token = await createSession(ctx.db, id);
    const file = await uploadFile(ctx.app, token, 'notes.txt', Buffer.from('kept across a rejoin'));

    /** Connects, makes the change in the fake Discord, and waits for the socket's session:ended. */
    const change = async (label: string, discordEvent: () => void) => {
      const socket = await connectClient(baseUrl, token);
      sockets.push(socket);
      const closed = disconnected(socket, EVENT_DEADLINE_MS);
      // The bound (5 s from the event), scaled like every deadline of the suite.
      const ended = nextEvent<SessionEnded>(
        socket,
        REALTIME_EVENTS.sessionEnded,
        () => true,
        deadline(5_000),
      );
      const t0 = performance.now();
      discordEvent();
      const got = await ended;
      const ms = performance.now() - t0;
      expect(await closed).toBe('io server disconnect');
      timings.push(`${label}: ${ms.toFixed(1)} ms`);
      return got.code;
    };
    const validate = async (t: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(t) });

    // Down: Mod removed (GUILD_MEMBER_UPDATE with the full role list). The session stays; the socket is closed
    // so that it comes back at the new level, and the next request already sees it.
    expect(await change('role removed (down)', () => bot.setMemberRoles(GUILD, id, [ROLE.member]))).toBe(
      'ACCESS_CHANGED',
    );
    expect(await levelOf(ctx, id)).toBe('user');
    expect((await validate(token)).json().user.access_level).toBe('user');
    const [entry] = await roleSyncAudits(ctx, id);
    expect(JSON.stringify(entry)).toContain('role Mod removed in Discord');

    // Up: Mod given back; the same at once, not at the hub's periodic re-check.
    expect(
      await change('role given (up)', () => bot.setMemberRoles(GUILD, id, [ROLE.mod, ROLE.member])),
    ).toBe('ACCESS_CHANGED');
    expect((await validate(token)).json().user.access_level).toBe('moderator');
    const again = await connectClient(baseUrl, token);
    sockets.push(again);
    const [live] = await ctx.app.realtime.io.fetchSockets();
    expect(live?.data).toMatchObject({ identity: { userId: id, level: 'moderator' } });
    again.close();

    // Leaving (GUILD_MEMBER_REMOVE): access and sessions end, the socket is told to sign out.
    expect(await change('left the server', () => bot.removeMember(GUILD, id))).toBe('AUTH_REQUIRED');
    expect((await findUserById(ctx.db, id))?.is_approved).toBe(0);
    expect((await validate(token)).statusCode).toBe(401);

    // Rejoining (GUILD_MEMBER_ADD): access is back at once; they sign in again and their file is still there.
    const t0 = performance.now();
    bot.addMember(GUILD, { id, username: 'mia', roles: [ROLE.mod, ROLE.member] });
    await eventually(async () => expect((await findUserById(ctx.db, id))?.is_approved).toBe(1));
    timings.push(`rejoined → approved in the database: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(await levelOf(ctx, id)).toBe('moderator');
    const back = await createSession(ctx.db, id);
    expect((await validate(back)).json().user.access_level).toBe('moderator');
    const files = await listFolder(ctx.app, back);
    expect(files.map((f) => [f.id, f.name, f.size])).toEqual([[file.id, 'notes.txt', file.size]]);

    expect(theReconciler().runs()).toBe(runs); // the events, not a run, applied every change
    expect((await syncState(ctx)).status.problem).toBeNull();
    console.info(`[role sync, intent on] Discord event → socket closed: ${timings.join('; ')}`);
  });

  it('a refused intent (4014) is the admin banner; the bot logs in without it and the reconcile goes on; once the admin enables it, the bot logs in with it and the banner goes', async () => {
    const clock = manualClock();
    let reconciler: Reconciler | null = null;
    const closesBefore = bot.disallowedCloses();
    const ctx = await createTestApp(env({ ROLE_SYNC_MEMBER_EVENTS: 'on' }), undefined, {
      features: FEATURES,
      clock,
      featureOptions: { roles: { observe: (r) => (reconciler = r) } },
    });
    contexts.push(ctx);
    const theReconciler = () => reconciler as unknown as Reconciler;
    await saveMapping(ctx);
    await eventually(() => expect(bot.disallowedCloses()).toBeGreaterThan(closesBefore));
    await eventually(async () =>
      expect((await syncState(ctx)).status.problem?.code).toBe('MEMBER_INTENT_DISALLOWED'),
    );
    // The bot is up without the intent (music works) and READY still re-checks everyone.
    await eventually(() => expect(theReconciler().runs()).toBeGreaterThanOrEqual(1));
    const user = await moderator(ctx, clock, theReconciler);
    bot.setMemberRoles(GUILD, user.discord_id, [ROLE.member]);
    await runFor(clock, theReconciler, INTERVAL_MS);
    expect(await levelOf(ctx, user.discord_id)).toBe('user');
    expect((await syncState(ctx)).status).toMatchObject({
      problem: { code: 'MEMBER_INTENT_DISALLOWED' },
      memberEvents: 'refused',
    });
    expect(theReconciler().events()).toBe(0);

    // The admin switches the intent on in the developer portal: the next run reads it from the
    // application's flags and the bot logs in again asking for it; its READY with the intent ends the banner.
    const logins = bot.identifyCount();
    bot.allowMembersIntent(true);
    await runFor(clock, theReconciler, INTERVAL_MS);
    expect(bot.log).toContain('GET /api/v10/applications/@me');
    await eventually(() => expect(bot.identifyCount()).toBe(logins + 1));
    await eventually(async () => expect((await syncState(ctx)).status.problem).toBeNull());
    expect((await syncState(ctx)).status.memberEvents).toBe('on');
    expect(bot.liveSessions()).toBe(1); // the old session without the intent is gone
    // Member events flow now: the member's new roles arrive as GUILD_MEMBER_UPDATE and are applied.
    bot.setMemberRoles(GUILD, user.discord_id, [ROLE.mod, ROLE.member]);
    await eventually(() => expect(theReconciler().events()).toBe(1));
    await eventually(async () => expect(await levelOf(ctx, user.discord_id)).toBe('moderator'));
    // Another run (the flags still say enabled) does not make the bot log in again.
    await runFor(clock, theReconciler, INTERVAL_MS);
    expect(bot.identifyCount()).toBe(logins + 1);
  });

  it("an event that comes while a run is looking is not undone by the run's older lookup", async () => {
    bot.allowMembersIntent(true);
    const clock = manualClock();
    let reconciler: Reconciler | null = null;
    const ctx = await createTestApp(env({ ROLE_SYNC_MEMBER_EVENTS: 'on' }), undefined, {
      features: FEATURES,
      clock,
      featureOptions: { roles: { observe: (r) => (reconciler = r) } },
    });
    contexts.push(ctx);
    const theReconciler = () => reconciler as unknown as Reconciler;
    await saveMapping(ctx);
    await eventually(() => expect(theReconciler().runs()).toBeGreaterThanOrEqual(1));
    const users = [];
    for (const name of ['ann', 'ben', 'cat']) {
      const u = await buildUser(ctx.db, { access_level: 'moderator', username: name });
      joinedBefore({ id: u.discord_id, username: name, roles: [ROLE.mod] });
      users.push(u);
    }
    await runFor(clock, theReconciler, INTERVAL_MS);
    // A run looks members up in the order of their ids, waiting on the clock between two lookups.
    const ben = [...users].sort((x, y) => x.discord_id.localeCompare(y.discord_id))[1]?.discord_id ?? '';
    expect(await levelOf(ctx, ben)).toBe('moderator');
    const lookups = () => bot.log.filter((l) => l.startsWith(`GET /api/v10/guilds/${GUILD}/members/`)).length;
    /** Moves the clock timer by timer (the music lease has timers too) until the run has made one more lookup. */
    const nextLookup = async () => {
      const before = lookups();
      while (lookups() === before) {
        await clock.advance((clock.nextDueAt() ?? clock.now()) - clock.now());
        await eventually(() => expect(theReconciler().isParked()).toBe(true));
      }
      expect(theReconciler().isIdle()).toBe(false);
    };

    await eventually(() => expect(theReconciler().isIdle()).toBe(true));
    await nextLookup(); // the next run has looked the first member up
    // Ben loses Mod before the run looks him up: the event applies it.
    bot.setMemberRoles(GUILD, ben, [ROLE.member]);
    await eventually(() => expect(theReconciler().events()).toBe(1));
    await eventually(async () => expect(await levelOf(ctx, ben)).toBe('user'));
    await nextLookup(); // the run has looked Ben up: Member only
    // Ben gets Mod back after that lookup: the event applies it.
    bot.setMemberRoles(GUILD, ben, [ROLE.mod]);
    await eventually(() => expect(theReconciler().events()).toBe(2));
    await eventually(async () => expect(await levelOf(ctx, ben)).toBe('moderator'));
    // The run ends: its lookup of Ben is older than his last event, so it must not take Mod away again.
    while (!theReconciler().isIdle()) {
      await clock.advance((clock.nextDueAt() ?? clock.now()) - clock.now());
      await eventually(() => expect(theReconciler().isParked()).toBe(true));
    }
    expect(await levelOf(ctx, ben)).toBe('moderator');
  });

  it('the banner of a refused intent is not shown while the sync is switched off', async () => {
    const clock = manualClock();
    const ctx = await createTestApp(env({ ROLE_SYNC_MEMBER_EVENTS: 'on' }), undefined, {
      features: FEATURES,
      clock,
    });
    contexts.push(ctx);
    await eventually(async () =>
      expect((await syncState(ctx)).status.problem?.code).toBe('MEMBER_INTENT_DISALLOWED'),
    );
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/role-sync',
      headers: bearer(await createSession(ctx.db, ADMIN_ID)),
      payload: { enabled: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status.problem).toBeNull();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl || process.env.TEST_DB !== 'postgres')(
  'two instances on one PostgreSQL: one reconcile, on the bot holder',
  () => {
    const clock = manualClock();
    let seen: Record<string, Reconciler> = {};
    /** Two instances on one PostgreSQL and Redis; `a` starts first and holds the bot. */
    async function twoInstances(extra: Record<string, string> = {}) {
      const prefix = `guildhall-test-roles2-${randomBytes(6).toString('hex')}`;
      seen = {};
      const start = (name: string, sameAs?: TestContext) =>
        createTestApp(env({ REDIS_URL: redisUrl!, REDIS_PREFIX: prefix, ...extra }), 'postgres', {
          features: FEATURES,
          clock,
          realtime: { redisKey: prefix },
          rateLimit: { redisPrefix: `${prefix}:rl:` },
          featureOptions: {
            music: { instanceId: name },
            roles: { observe: (r) => (seen[name] = r) },
          },
          ...(sameAs ? { sameDatabaseAs: sameAs } : {}),
        });
      const a = await start('a'); // takes the lease first: the holder
      contexts.push(a);
      const b = await start('b', a);
      contexts.push(b);
      const both: () => Reconciler = () => {
        const [ra, rb] = [seen.a, seen.b];
        if (!ra || !rb) throw new Error('the roles feature did not start on both');
        return {
          ...ra,
          isParked: () => ra.isParked() && rb.isParked(),
          isIdle: () => ra.isIdle() && rb.isIdle(),
        };
      };
      return { a, b, both };
    }

    it('one run applies each change once (one audit entry); the other instance skips its runs', async () => {
      const { a, b, both } = await twoInstances();
      await saveMapping(b);
      const user = await moderator(a, clock, both);
      bot.setMemberRoles(GUILD, user.discord_id, [ROLE.member]);
      await runFor(clock, both, 2 * INTERVAL_MS);

      expect(await levelOf(b, user.discord_id)).toBe('user');
      expect(await roleSyncAudits(a, user.discord_id)).toHaveLength(1);
      expect(seen.a?.runs()).toBeGreaterThanOrEqual(2);
      expect(seen.b?.runs()).toBe(0);
    });

    it("Check now through the instance that does not hold the bot starts a run on the holder, not at the holder's next interval", async () => {
      const { a, b, both } = await twoInstances();
      await saveMapping(b);
      const user = await moderator(a, clock, both);
      bot.setMemberRoles(GUILD, user.discord_id, [ROLE.member]);
      const before = seen.a?.runs() ?? 0;
      const checked = await b.app.inject({
        method: 'POST',
        url: '/api/admin/role-sync/check',
        headers: bearer(await createSession(b.db, ADMIN_ID)),
      });
      expect(checked.statusCode, checked.body).toBe(200);
      // The clock stands still: a run of one member needs no timer, and the holder's next interval never comes.
      await eventually(async () => expect(await levelOf(b, user.discord_id)).toBe('user'));
      expect(seen.a?.runs()).toBe(before + 1);
      expect(seen.b?.runs()).toBe(0);
    });

    it('each member event is applied once, by the bot holder, also after the bot moved to the other instance', async () => {
      bot.allowMembersIntent(true);
      const { a, b, both } = await twoInstances({ ROLE_SYNC_MEMBER_EVENTS: 'on' });
      await saveMapping(b);
      const user = await moderator(a, clock, both);
      // One bot for the deployment: one gateway session, so Discord sends each event once.
      await eventually(() => expect(bot.liveSessions()).toBe(1));
      const runs = seen.a?.runs();
      // The member's tab is connected to the other instance: the holder's change reaches it through Redis.
      const socket = await connectClient(await listen(b.app), await createSession(b.db, user.discord_id));
      sockets.push(socket);
      const told = nextEvent<SessionEnded>(socket, REALTIME_EVENTS.sessionEnded, () => true, deadline(5_000));

      bot.setMemberRoles(GUILD, user.discord_id, [ROLE.member]); // GUILD_MEMBER_UPDATE
      expect((await told).code).toBe('ACCESS_CHANGED');
      await eventually(async () => expect(await levelOf(b, user.discord_id)).toBe('user'));
      expect(seen.a?.events()).toBe(1);
      expect(seen.b?.events()).toBe(0);
      expect(seen.a?.runs()).toBe(runs); // the event applied it, not a run
      expect(await roleSyncAudits(a, user.discord_id)).toHaveLength(1);

      // The holder stops (SIGTERM): b takes the bot at once and applies the next event, once.
      await a.app.close();
      await eventually(() => expect(seen.b?.runs()).toBeGreaterThan(0)); // b's bot READY started a run
      await eventually(() => expect(bot.liveSessions()).toBe(1));
      bot.setMemberRoles(GUILD, user.discord_id, [ROLE.mod, ROLE.member]);
      await eventually(async () => expect(await levelOf(b, user.discord_id)).toBe('moderator'));
      expect(seen.b?.events()).toBe(1);
      expect(seen.a?.events()).toBe(1);
      expect(await roleSyncAudits(b, user.discord_id)).toHaveLength(2);
    });
  },
);
