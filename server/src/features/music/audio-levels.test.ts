import { MUSIC_TEXTS, type PlaybackStatus, skipVoteText } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decodeToMono, rmsDb } from '../../test/fake-discord-bot/index.ts';
import { LoudnessCache } from './loudness.ts';
import {
  addToLibrary,
  api,
  audioAfter,
  GUILD_ID,
  type MusicTestContext,
  startMusicApp,
  status,
  synthesize,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

/** A pause's length is the input under test (longer than the idle limit). */
const pauseLasts = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Control = { data: { message: string; status: PlaybackStatus }; error: string; code: string };

/**
 * Issue 27 through the fake Discord: volume, loudness normalisation, a pause longer than the idle limit,
 * and Discord-style vote-skip with three listeners. The idle limit is 1 s here (5 minutes by default).
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('music levels, pause and vote-skip', () => {
  let t: MusicTestContext;
  const urls: Record<string, string> = {};
  const post = (path: string, body?: Record<string, unknown>, token = t.alice.token) =>
    api<Control>(t, token, 'POST', `/api/music/${path}/${GUILD_ID}`, body);
  const play = (url: string, token = t.alice.token) =>
    api<Control>(t, token, 'POST', '/api/music/play', { guildId: GUILD_ID, url });
  /** The level of a second of audio heard from now on (after a change's answer: the new audio). */
  const levelNow = async () => rmsDb(decodeToMono(await audioAfter(t.discord, performance.now(), 60, 50)));

  /** The loudness measurements asked for (each resolves once the players have its gain). */
  const measure = vi.spyOn(LoudnessCache.prototype, 'measure');

  beforeAll(async () => {
    t = await startMusicApp({ MUSIC_IDLE_LEAVE_SECONDS: '1' });
    // The same 440 Hz tone at about −30 and −10 LUFS (ffmpeg's sine is 1/8 full scale, ≈ −21.7 LUFS).
    const [quiet, loud, plain] = await Promise.all([
      synthesize('sine=frequency=440:sample_rate=24000,volume=-8.3dB', 30),
      synthesize('sine=frequency=440:sample_rate=24000,volume=11.7dB', 30),
      tone(440, 60),
    ]);
    urls.quiet = await addToLibrary(t, t.alice.token, 'quiet.wav', quiet);
    urls.loud = await addToLibrary(t, t.alice.token, 'loud.wav', loud);
    urls.plain = await addToLibrary(t, t.alice.token, 'plain.wav', plain);
  });
  afterAll(async () => {
    measure.mockRestore();
    await t?.closeAll();
  });

  test('volume 50 % is about −6 dB, applied while the song plays, and kept for the server', async () => {
    expect((await post('normalize', { enabled: false })).status).toBe(200);
    expect((await play(urls.plain ?? '')).status).toBe(200);
    const full = await levelNow();
    const half = await post('volume', { volume: 50 });
    expect(half.status).toBe(200);
    expect(half.body.data.status.volume).toBe(50);
    const drop = full - (await levelNow());
    expect(drop).toBeGreaterThan(5);
    expect(drop).toBeLessThan(7);
    expect((await post('volume', { volume: 201 })).status).toBe(400);
    expect((await post('volume', { volume: 100 })).status).toBe(200);
    expect((await post('stop')).status).toBe(200);
  });

  test('loudness normalisation brings a −30 LUFS and a −10 LUFS file within 2 LU of each other', async () => {
    expect((await post('normalize', { enabled: true })).status).toBe(200);
    const heard: number[] = [];
    for (const url of [urls.quiet, urls.loud]) {
      const asked = measure.mock.results.length;
      expect((await play(url ?? '')).status).toBe(200);
      // Never played: it starts at 0 dB and is measured after its first packet (asked before the answer);
      // once measured, its gain is reached over a second (SOURCE_RAMP_FRAMES), heard past that second.
      const measured = measure.mock.results.slice(asked).map((r) => r.value as Promise<number | null>);
      expect(measured.length).toBeGreaterThan(0);
      await Promise.all(measured);
      await audioAfter(t.discord, performance.now(), 0, 55);
      heard.push(await levelNow());
      expect((await post('stop')).status).toBe(200);
    }
    const [quiet = 0, loud = 0] = heard;
    expect(Math.abs(loud - quiet)).toBeLessThanOrEqual(2);
    expect((await status(t, t.alice.token)).normalize).toBe(true);
  });

  test('a pause longer than the idle limit keeps the bot in its channel (Paused, not Idle); resume plays on', async () => {
    expect((await play(urls.plain ?? '')).status).toBe(200);
    await audioAfter(t.discord, performance.now(), 0, 25);
    const paused = await post('pause');
    expect(paused.body.data.status).toMatchObject({ state: 'paused', idle: false });
    await pauseLasts(2500);
    const s = await status(t, t.alice.token);
    expect(s).toMatchObject({ state: 'paused', idle: false, voiceChannel: { id: VOICE_CHANNEL_ID } });
    expect(t.discord.botChannel(GUILD_ID)).toBe(VOICE_CHANNEL_ID);
    expect((await post('resume')).status).toBe(200);
    await audioAfter(t.discord, performance.now(), 0, 25);
    expect((await status(t, t.alice.token)).state).toBe('playing');
  });

  test('vote-skip: three listeners, one vote does not skip, two do; a moderator skips at once; someone outside the channel is refused', async () => {
    const carol = await t.signIn({ discord_id: '500000000000000003', username: 'carol' });
    const dave = await t.signIn({ discord_id: '500000000000000004', username: 'dave' });
    const mod = await t.signIn({
      discord_id: '500000000000000005',
      username: 'mo',
      access_level: 'moderator',
    });
    t.discord.setVoiceState(GUILD_ID, carol.userId, VOICE_CHANNEL_ID);
    t.discord.setVoiceState(GUILD_ID, dave.userId, VOICE_CHANNEL_ID);
    for (const url of [urls.quiet, urls.loud, urls.plain]) expect((await play(url ?? '')).status).toBe(200);
    const before = await status(t, t.alice.token);
    expect(before.listeners).toBe(3);
    expect(before.skipVotes).toEqual({ voters: [], needed: 2 });
    const current = before.currentSong?.entryId;

    // Bob is in no voice channel: he may not change what the others hear.
    const outside = await post('skip', undefined, t.bob.token);
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ error: MUSIC_TEXTS.notInBotChannel, code: 'NOT_IN_BOT_CHANNEL' });
    expect((await post('pause', undefined, t.bob.token)).status).toBe(403);

    const one = await post('skip', undefined, carol.token);
    expect(one.status).toBe(200);
    expect(one.body.data.message).toBe(skipVoteText(1, 2));
    expect(one.body.data.status.currentSong?.entryId).toBe(current);
    expect(one.body.data.status.skipVotes).toEqual({
      voters: [{ id: carol.userId, displayName: 'carol' }],
      needed: 2,
    });
    // The same member voting again does not count twice.
    expect((await post('skip', undefined, carol.token)).body.data.message).toBe(skipVoteText(1, 2));

    const two = await post('skip', undefined, dave.token);
    expect(two.body.data.message).toBe(MUSIC_TEXTS.skipped);
    expect(two.body.data.status.currentSong?.entryId).not.toBe(current);
    expect(two.body.data.status.skipVotes.voters).toEqual([]);

    // A moderator skips at once, from outside the channel.
    const next = two.body.data.status.currentSong?.entryId;
    const modSkip = await post('skip', undefined, mod.token);
    expect(modSkip.body.data.message).toBe(MUSIC_TEXTS.skipped);
    expect(modSkip.body.data.status.currentSong?.entryId).not.toBe(next);
    t.discord.setVoiceState(GUILD_ID, carol.userId, null);
    t.discord.setVoiceState(GUILD_ID, dave.userId, null);
    expect((await post('stop')).status).toBe(200);
  });
});
