import type { MusicControlResponse, MusicPlayResponse, PlaybackStatus } from '@guildhall/common';
import { MUSIC_QUEUE_TEXTS } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defaultTestDatabase, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import {
  addToLibrary,
  api,
  BOB,
  GUILD_ID,
  hears,
  type MusicTestContext,
  startMusicApp,
  status,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

/**
 * Issue 48, what it must show: fair queue on, A queues 3 and B queues 1, so B's song plays second (heard
 * at its pitch through the fake Discord voice); the no-duplicates rule answers the requester with its
 * message; both options and the fair order survive a restart (the stored queue is the order).
 */
describe('fair queue and no duplicates (issue 48)', () => {
  let t: MusicTestContext;
  let moderator: { token: string };
  let restarted: TestContext | null = null;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    t = await startMusicApp();
    t.discord.setVoiceState(GUILD_ID, BOB.id, VOICE_CHANNEL_ID);
    moderator = await t.signIn({ access_level: 'moderator' });
    for (const [name, hz] of [
      ['A one', 440],
      ['A two', 550],
      ['A three', 660],
      ['B one', 880],
    ] as const) {
      urls[name] = await addToLibrary(t, t.alice.token, `${name}.wav`, await tone(hz, 60));
    }
  });
  afterAll(async () => {
    await restarted?.close();
    await t?.closeAll();
  });

  const play = (token: string, url: string) =>
    api<MusicPlayResponse & { code?: string; error?: string }>(t, token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url,
    });

  it('is off by default and only moderators switch it', async () => {
    expect((await status(t, t.alice.token)).options).toEqual({
      fairQueue: false,
      noDuplicates: false,
      autoplay: false,
    });
    const refused = await api(t, t.alice.token, 'POST', `/api/music/fair-queue/${GUILD_ID}`, {
      enabled: true,
    });
    expect(refused.status).toBe(403);
    const on = await api<MusicControlResponse>(
      t,
      moderator.token,
      'POST',
      `/api/music/fair-queue/${GUILD_ID}`,
      {
        enabled: true,
      },
    );
    expect(on.status).toBe(200);
    expect(on.body.data.message).toBe('Fair queue on: songs take turns by requester');
    expect(on.body.data.status.options).toEqual({ fairQueue: true, noDuplicates: false, autoplay: false });
  });

  it("A queues 3, B queues 1: B's song plays second, heard at its pitch", async () => {
    for (const name of ['A one', 'A two', 'A three']) {
      expect((await play(t.alice.token, urls[name]!)).status).toBe(200);
    }
    const queued = await play(t.bob.token, urls['B one']!);
    expect(queued.status).toBe(200);
    expect(queued.body.data.position).toBe(0);
    const s = await status(t, t.alice.token);
    expect(s.currentSong?.title).toBe('A one');
    expect(s.queue.map((q) => q.title)).toEqual(['B one', 'A two', 'A three']);

    // A's first song ends (skipped by its requester): B's plays, heard at its pitch.
    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('B one');
    await hears(t.discord, 880);
  });

  it('no duplicates: the requester is told the song is already queued; a list leaves it out', async () => {
    const twice = await play(t.alice.token, urls['A two']!);
    expect(twice.status).toBe(200); // the rule is off: a second copy is queued
    const on = await api(t, moderator.token, 'POST', `/api/music/no-duplicates/${GUILD_ID}`, {
      enabled: true,
    });
    expect(on.status).toBe(200);
    const refused = await play(t.alice.token, urls['A three']!);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'DUPLICATE_IN_QUEUE', error: MUSIC_QUEUE_TEXTS.duplicate });
    const playing = await play(t.bob.token, urls['B one']!); // the song playing counts too
    expect(playing.body).toMatchObject({ code: 'DUPLICATE_IN_QUEUE' });
    expect((await status(t, t.alice.token)).options).toEqual({
      fairQueue: true,
      noDuplicates: true,
      autoplay: false,
    });
  });

  it('the options and the fair order survive a restart', async () => {
    const before: PlaybackStatus = await status(t, t.alice.token);
    await t.app.close();
    restarted = await createTestApp(
      {
        DISCORD_BOT_TOKEN: t.discord.token,
        DISCORD_BOT_API_URL: t.discord.apiUrl,
        MUSIC_DEFAULT_GUILD_ID: GUILD_ID,
        DATA_DIR: t.config.dataDir,
      },
      defaultTestDatabase(),
      { sameDatabaseAs: t },
    );
    const after = await eventually(
      async () => {
        const s = await status(restarted!, t.alice.token);
        expect(s).toMatchObject({ botState: 'online', state: 'playing', currentSong: { title: 'B one' } });
        return s;
      },
      { interval: 250 },
    );
    expect(after.options).toEqual({ fairQueue: true, noDuplicates: true, autoplay: false });
    expect(after.queue.map((q) => q.title)).toEqual(before.queue.map((q) => q.title));
    // B's next song takes its turn (B, A, B, A…), not the end of the queue.
    const bTwo = await addToLibrary(restarted, t.bob.token, 'B two.wav', await tone(990, 60));
    const res = await api<MusicPlayResponse>(restarted, t.bob.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: bTwo,
    });
    expect(res.status).toBe(200);
    expect((await status(restarted, t.alice.token)).queue.map((q) => q.title)).toEqual([
      'A two',
      'B two',
      'A three',
      'A two',
    ]);
  });
});
