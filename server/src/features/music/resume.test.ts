import type { PlaybackStatus } from '@guildhall/common';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { startFakeDiscordBot } from '../../test/fake-discord-bot/index.ts';
import {
  ALICE,
  addToLibrary,
  api,
  audioAfter,
  chirp,
  chirpPosition,
  GUILD_ID,
  status,
  TEST_GUILDS,
  tone,
  VOICE_CHANNEL_ID,
  waitForBot,
} from './test-helpers.ts';

// Issue 42: one instance on SQLite (no lease) keeps its music through a restart.
describe('one SQLite instance restarted mid-song', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it('comes back in the same voice channel and plays the same song on from where it was, queue intact', async () => {
    const discord = await startFakeDiscordBot(TEST_GUILDS);
    closing.push(() => discord.close());
    discord.setVoiceState(GUILD_ID, ALICE.id, VOICE_CHANNEL_ID);
    const env = { DISCORD_BOT_TOKEN: discord.token, DISCORD_BOT_API_URL: discord.apiUrl };
    const first = await createTestApp(env, 'sqlite');
    closing.push(() => first.close());
    const alice = await first.signIn({ discord_id: ALICE.id, username: ALICE.username });
    await waitForBot(first, alice.token);
    const rising = await addToLibrary(first, alice.token, 'chirp.wav', await chirp(30));
    const next = await addToLibrary(first, alice.token, 'tone 440.wav', await tone(440, 10));
    for (const url of [rising, next]) {
      expect(
        (await api(first, alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url })).status,
      ).toBe(200);
    }
    await audioAfter(discord, performance.now(), 0, 150); // three seconds in
    const before = await status(first, alice.token);
    expect(before.currentSong?.title).toBe('chirp');

    const stoppedAt = performance.now();
    await first.app.close(); // SIGTERM
    expect(discord.botChannel(GUILD_ID)).toBeNull();
    const second: TestContext = await createTestApp({ ...env, DATA_DIR: first.config.dataDir }, 'sqlite', {
      sameDatabaseAs: first,
    });
    closing.push(() => second.close());

    const seen: PlaybackStatus[] = [];
    const resumed = await eventually(
      async () => {
        const s: PlaybackStatus = await status(second, alice.token);
        seen.push(s);
        expect(s).toMatchObject({ botState: 'online', state: 'playing', currentSong: { title: 'chirp' } });
        return s;
      },
      { interval: 100 },
    );
    // Meanwhile (logging in, rejoining) the song and its queue stayed on screen: never "stopped" or gone.
    for (const s of seen) {
      expect(s).toMatchObject({ currentSong: { title: 'chirp' }, idle: false });
      expect(s.queue.map((q) => q.title)).toEqual(['tone 440']);
    }
    expect(resumed.queue.map((s) => s.title)).toEqual(['tone 440']);
    expect(resumed.voiceChannel?.id).toBe(VOICE_CHANNEL_ID);
    expect(discord.botChannel(GUILD_ID)).toBe(VOICE_CHANNEL_ID);
    const heard = chirpPosition(await audioAfter(discord, stoppedAt, 0, 50));
    expect(Math.abs(heard - before.elapsedTime)).toBeLessThanOrEqual(2);
    expect(Math.abs(resumed.elapsedTime - before.elapsedTime)).toBeLessThanOrEqual(2);
  });
});
