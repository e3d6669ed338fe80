import { randomBytes } from 'node:crypto';
import type { MusicPlayResponse } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys } from '../../platform/rate-limit/testing.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { type FakeDiscordBot, startFakeDiscordBot } from '../../test/fake-discord-bot/index.ts';
import { manualClock } from '../../test/manual-clock.ts';
import {
  ALICE,
  addToLibrary,
  api,
  BOB,
  GUILD_ID,
  status,
  TEST_GUILDS,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Issue 48 on two instances (PostgreSQL and Redis, the real bot on the fake Discord): the holder owns the
 * queue; the fair-queue option switched through the other instance and songs queued through both land in
 * the holder's one queue in round-robin order, the same on both.
 */
describe.skipIf(!redisUrl || process.env.TEST_DB !== 'postgres')('fair queue on two instances', () => {
  let discord: FakeDiscordBot;
  const clock = manualClock();
  const prefix = `guildhall-test-fairq-${randomBytes(6).toString('hex')}`;
  const apps: TestContext[] = [];
  const urls: Record<string, string> = {};
  let alice: { token: string };
  let bob: { token: string };
  let moderator: { token: string };

  const start = (instanceId: string, sameAs?: TestContext) =>
    createTestApp(
      {
        DISCORD_BOT_TOKEN: discord.token,
        DISCORD_BOT_API_URL: discord.apiUrl,
        MUSIC_DEFAULT_GUILD_ID: GUILD_ID,
        REDIS_URL: redisUrl!,
        REDIS_PREFIX: prefix,
        ...(sameAs ? { DATA_DIR: sameAs.config.dataDir } : {}),
      },
      'postgres',
      {
        clock,
        realtime: { redisKey: prefix },
        rateLimit: { redisPrefix: `${prefix}:rl:` },
        featureOptions: { music: { instanceId } },
        ...(sameAs ? { sameDatabaseAs: sameAs } : {}),
      },
    );

  beforeAll(async () => {
    discord = await startFakeDiscordBot(structuredClone(TEST_GUILDS));
    discord.setVoiceState(GUILD_ID, ALICE.id, VOICE_CHANNEL_ID);
    discord.setVoiceState(GUILD_ID, BOB.id, VOICE_CHANNEL_ID);
    const a = await start('A');
    apps.push(a, await start('B', a));
    alice = await a.signIn({ discord_id: ALICE.id, username: ALICE.username });
    bob = await a.signIn({ discord_id: BOB.id, username: BOB.username });
    moderator = await a.signIn({ access_level: 'moderator' });
    for (const [name, hz] of [
      ['A one', 440],
      ['A two', 550],
      ['A three', 660],
      ['B one', 880],
    ] as const) {
      urls[name] = await addToLibrary(a, alice.token, `${name}.wav`, await tone(hz, 60));
    }
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await discord?.close();
    if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
  });

  it('switched through B, queued through both: the holder A takes B second, and both say so', async () => {
    const [a, b] = apps as [TestContext, TestContext];
    await eventually(async () => {
      const res = await api<{ data: { guilds: unknown[] } }>(b, alice.token, 'GET', '/api/music/guilds');
      expect(res.body.data.guilds).toHaveLength(2);
    });
    const on = await api(b, moderator.token, 'POST', `/api/music/fair-queue/${GUILD_ID}`, { enabled: true });
    expect(on.status).toBe(200);
    for (const name of ['A one', 'A two', 'A three']) {
      const res = await api(a, alice.token, 'POST', '/api/music/play', {
        guildId: GUILD_ID,
        url: urls[name],
      });
      expect(res.status).toBe(200);
    }
    const viaB = await api<MusicPlayResponse>(b, bob.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: urls['B one'],
    });
    expect(viaB.status).toBe(200);
    expect(viaB.body.data.position).toBe(0);
    for (const ctx of [a, b]) {
      const s = await status(ctx, alice.token);
      expect(s.options.fairQueue).toBe(true);
      expect([s.currentSong?.title, ...s.queue.map((q) => q.title)]).toEqual([
        'A one',
        'B one',
        'A two',
        'A three',
      ]);
    }
    expect(discord.liveSessions()).toBe(1);
  });
});
