import type { PlaybackStatus, RoleSyncState } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../platform/sessions.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import {
  decodeToMono,
  dominantFrequency,
  type FakeDiscordBot,
  type FakeGuildFailure,
  startFakeDiscordBot,
} from '../../test/fake-discord-bot/index.ts';
import { addToLibrary, audioAfter, tone, waitForBot } from '../music/test-helpers.ts';
import { findUserById } from '../users/index.ts';
import type { Reconciler } from './index.ts';
import { manualClock, runFor } from './test-helpers.ts';

/**
 * Issue 43, point 3, as one outage: the bot kicked from the server (50001), then Discord answering 500,
 * then 429, twenty seconds of each on the injected clock (a minute), with member events on and the Server
 * Members intent not enabled (the gateway's 4014). No level changes, the admins' banner names each problem,
 * an approved member still signs in and the music bot keeps playing (heard through the fake voice server);
 * once Discord answers the sync resumes, and once the admin enables the intent the banner goes.
 */

const GUILD = '470000000000000001';
const VOICE = '470000000000000010';
const ADMIN_ID = '470000000000000099';
const ROLE = { mod: '471000000000000001', member: '471000000000000002' };
const ALICE = { id: '472000000000000001', username: 'alice' };
const BOB = { id: '472000000000000002', username: 'bob' };
const INTERVAL_MS = 10_000;
const FEATURES = ['auth', 'users', 'admin', 'roles', 'files', 'music'];

let discord: FakeDiscord;
let bot: FakeDiscordBot;
let ctx: TestContext;
let reconciler: Reconciler | null = null;
const clock = manualClock();

const theReconciler = () => {
  if (!reconciler) throw new Error('the roles feature did not start');
  return reconciler;
};
const admin = async () => bearer(await createSession(ctx.db, ADMIN_ID));

async function syncState(): Promise<RoleSyncState> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/role-sync', headers: await admin() });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** The whole Discord sign-in as the browser walks it. */
async function signIn(user: { id: string; username: string }) {
  discord.setUser(user);
  const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/discord/url' });
  const back = new URL((await fetch(start.json().url, { redirect: 'manual' })).headers.get('location') ?? '');
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
const levelChanges = async () =>
  (await ctx.db.selectFrom('admin_audit').select('id').where('action', '=', 'user.role_sync').execute())
    .length;

/** About a second of what the voice channel hears now: the 440 Hz song, not silence or another pitch. */
async function hears440() {
  const packets = await audioAfter(bot, performance.now(), 0, 60);
  expect(Math.abs(dominantFrequency(decodeToMono(packets.slice(10))) - 440)).toBeLessThanOrEqual(5);
}

async function playing(token: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/music/status/${GUILD}`,
    headers: bearer(token),
  });
  return (res.json() as { data: PlaybackStatus }).data;
}

// Audio does not depend on the database: run once (on SQLite), as the music audio tests do.
describe.skipIf(process.env.TEST_DB === 'postgres')(
  'never lock out when Discord fails, music included (point 3)',
  () => {
    beforeAll(async () => {
      discord = await startFakeDiscord();
      bot = await startFakeDiscordBot([
        {
          id: GUILD,
          name: 'The Guildhall Community',
          voiceChannels: [{ id: VOICE, name: 'Lounge' }],
          members: [
            { ...ALICE, roles: [ROLE.member] },
            { ...BOB, roles: [ROLE.mod] },
          ],
          roles: [
            { id: ROLE.mod, name: 'Mod', color: 0x2ecc71, position: 2 },
            { id: ROLE.member, name: 'Member', color: 0x3498db, position: 1 },
          ],
        },
      ]);
      bot.setVoiceState(GUILD, ALICE.id, VOICE);
      ctx = await createTestApp(
        {
          DISCORD_CLIENT_ID: discord.clientId,
          DISCORD_CLIENT_SECRET: discord.clientSecret,
          DISCORD_REDIRECT_URI: 'http://127.0.0.1:9/auth/discord/callback',
          DISCORD_API_URL: discord.apiUrl,
          DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
          DISCORD_BOT_TOKEN: bot.token,
          DISCORD_BOT_API_URL: bot.apiUrl,
          MUSIC_DEFAULT_GUILD_ID: GUILD,
          ADMIN_DISCORD_IDS: ADMIN_ID,
          ROLE_SYNC: 'on',
          ROLE_SYNC_GUILD_ID: GUILD,
          ROLE_SYNC_INTERVAL_SECONDS: String(INTERVAL_MS / 1000),
          ROLE_SYNC_MEMBER_EVENTS: 'on', // the intent is off in the fake's "developer portal": a 4014
        },
        undefined,
        { features: FEATURES, clock, featureOptions: { roles: { observe: (r) => (reconciler = r) } } },
      );
    });
    afterAll(async () => {
      await ctx?.close();
      await bot?.close();
      await discord?.close();
    });

    it('the bot kicked, 500 and 429 for a minute, and a 4014: 0 level changes, the banner, sign-in and music work; then the sync resumes and the banner goes', async () => {
      const mapping = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/role-sync',
        headers: await admin(),
        payload: {
          roleLevels: [
            { roleId: ROLE.mod, level: 'moderator' },
            { roleId: ROLE.member, level: 'user' },
          ],
        },
      });
      expect(mapping.statusCode, mapping.body).toBe(200);
      // The gateway refused the intent: the banner; the bot logged in without it.
      await eventually(async () =>
        expect((await syncState()).status.problem?.code).toBe('MEMBER_INTENT_DISALLOWED'),
      );
      expect(bot.disallowedCloses()).toBeGreaterThan(0);

      const alice = await signIn(ALICE);
      expect(alice.statusCode, alice.body).toBe(200);
      expect(alice.json().user.access_level).toBe('user');
      const aliceToken: string = alice.json().token;
      expect((await signIn(BOB)).json().user.access_level).toBe('moderator');
      await waitForBot(ctx, aliceToken);
      await runFor(clock, theReconciler, INTERVAL_MS);
      const changesBefore = await levelChanges();

      const song = await addToLibrary(ctx, aliceToken, 'tone 440.wav', await tone(440, 120));
      const play = await ctx.app.inject({
        method: 'POST',
        url: '/api/music/play',
        headers: bearer(aliceToken),
        payload: { guildId: GUILD, url: song },
      });
      expect(play.statusCode, play.body).toBe(200);
      await hears440();

      // Bob loses Mod in Discord while the bot cannot see it: it would be a demotion.
      bot.setMemberRoles(GUILD, BOB.id, []);
      const outage: [FakeGuildFailure, string][] = [
        ['missing-access', 'MISSING_ACCESS'],
        ['server-error', 'DISCORD_ERROR'],
        ['rate-limited', 'RATE_LIMITED'],
      ];
      for (const [failure, code] of outage) {
        bot.failGuildRoutes(failure);
        await runFor(clock, theReconciler, 2 * INTERVAL_MS);
        const state = await syncState();
        expect(state.status.problem?.code, failure).toBe(code);
        // Already-approved members sign in (their lookup fails: the stored approval decides).
        const again = await signIn(ALICE);
        expect(again.statusCode, failure).toBe(200);
        expect(again.json().user.access_level).toBe('user');
        // The music bot plays on: its gateway and voice do not need the server's REST routes.
        expect(await playing(aliceToken)).toMatchObject({
          state: 'playing',
          currentSong: { title: 'tone 440' },
        });
        await hears440();
      }
      expect(await levelChanges()).toBe(changesBefore);
      expect(await levelOf(BOB.id)).toEqual({ level: 'moderator', approved: true });
      expect(await levelOf(ALICE.id)).toEqual({ level: 'user', approved: true });

      // Discord answers again: the next run applies what it missed; only the refused intent is left.
      bot.failGuildRoutes(null);
      await runFor(clock, theReconciler, INTERVAL_MS);
      expect(await levelOf(BOB.id)).toEqual({ level: 'viewer', approved: false });
      expect(await levelChanges()).toBe(changesBefore + 1);
      expect((await syncState()).status.problem?.code).toBe('MEMBER_INTENT_DISALLOWED');

      // The admin enables the intent: the bot logs in again with it (the song carries on) and the banner goes.
      const logins = bot.identifyCount();
      bot.allowMembersIntent(true);
      await runFor(clock, theReconciler, INTERVAL_MS);
      await eventually(() => expect(bot.identifyCount()).toBe(logins + 1));
      await eventually(async () => expect((await syncState()).status.problem).toBeNull());
      await eventually(async () =>
        expect(await playing(aliceToken)).toMatchObject({
          state: 'playing',
          currentSong: { title: 'tone 440' },
        }),
      );
      await hears440();
      expect(await levelOf(ALICE.id)).toEqual({ level: 'user', approved: true });
    });
  },
);
