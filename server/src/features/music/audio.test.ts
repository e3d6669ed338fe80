import { MUSIC_TEXTS, type MusicPlayResponse } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeToMono, dominantFrequency, isSilenceFrame, rmsDb } from '../../test/fake-discord-bot/index.ts';
import {
  addToLibrary,
  api,
  audioAfter,
  GUILD_ID,
  holeAround,
  type MusicTestContext,
  startMusicApp,
  status,
  synthesize,
  tone,
} from './test-helpers.ts';

/**
 * End to end through a fake Discord: the real discord.js bot joins the voice channel, ffmpeg encodes,
 * @discordjs/voice sends encrypted RTP; the fake decrypts it, the test decodes the Opus and measures
 * what a listener would hear. One session, songs in a row, a second or so of audio per check.
 */
// Audio does not depend on the database: run once (on SQLite), not again in CI's PostgreSQL pass.
describe.skipIf(process.env.TEST_DB === 'postgres')('music audio through the fake Discord', () => {
  let t: MusicTestContext;
  const urls: Record<string, string> = {};
  const FRAMES = 50; // one second of 20 ms packets

  beforeAll(async () => {
    t = await startMusicApp();
    const [a440, a100, chirp, split] = await Promise.all([
      tone(440, 60),
      tone(100, 12),
      // Instantaneous frequency 200 + 100·t Hz: the pitch tells the position in the song.
      synthesize('aevalsrc=sin(2*PI*(200*t+50*t*t)):s=24000', 8),
      synthesize(
        'sine=frequency=330:sample_rate=24000:duration=4[a];sine=frequency=660:sample_rate=24000:duration=4[b];[a][b]concat=n=2:v=0:a=1',
        8,
      ),
    ]);
    urls.a440 = await addToLibrary(t, t.alice.token, 'tone 440.wav', a440);
    urls.a100 = await addToLibrary(t, t.alice.token, 'tone 100.wav', a100);
    urls.chirp = await addToLibrary(t, t.alice.token, 'chirp.wav', chirp);
    urls.split = await addToLibrary(t, t.alice.token, 'split 330 660.wav', split);
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  // When the last request that may change the audio was answered: the packets after it are the steady
  // playback from which a change's own hole is told apart from the machine's stalls.
  let lastControlAt = 0;
  const controlled = <T>(res: T): T => {
    lastControlAt = performance.now();
    return res;
  };
  const play = async (url: string, token = t.alice.token) =>
    controlled(await api<MusicPlayResponse>(t, token, 'POST', '/api/music/play', { guildId: GUILD_ID, url }));
  const post = async (path: string, body?: Record<string, unknown>) =>
    controlled(await api(t, t.alice.token, 'POST', `/api/music/${path}/${GUILD_ID}`, body));
  const freqOf = (packets: Parameters<typeof decodeToMono>[0]) => dominantFrequency(decodeToMono(packets));
  /**
   * A change, timed: the request, its answer (which comes once the new audio flows), and the hole it
   * left in the packets (must stay within one late 20 ms frame: issue 27) with no silence inserted.
   */
  const change = async (path: string, body?: Record<string, unknown>) => {
    const steadySince = lastControlAt + 500;
    const requestAt = performance.now();
    const res = await post(path, body);
    const answeredAt = performance.now();
    expect(res.status).toBe(200);
    const gap = await holeAround(t.discord, requestAt, answeredAt, steadySince);
    // 40 ms: at most one late frame. This can only be judged where the machine itself keeps the 20 ms
    // pace: when its event loop already stalls longer than a frame with no change at all (the shared
    // development machine at load 20), the gaps are the machine's and the check is reported, not made.
    // CI runs alone on the machine, where it is made.
    // Packets arrive at multiples of 20 ms plus timer jitter: a hole of 40 ms is one late frame, 41 ms
    // is still one (CI measured 40.4 and 41.4), 60 ms would be two. So "at most one late frame" is < 60 ms.
    if (gap.machineMs <= 40) {
      expect(gap.holeMs, `${path}: hole in the audio`).toBeLessThan(60);
    } else {
      console.warn(
        `${path}: longest gap ${gap.holeMs.toFixed(0)} ms; the machine alone stalled ${gap.machineMs.toFixed(0)} ms: not judged`,
      );
    }
    expect(gap.silences, `${path}: silence frames inserted`).toBe(0);
    return answeredAt;
  };
  // Audio heard after a change's answer: the voice player had at most two frames of the old audio ready.
  const SETTLE_MS = 60;
  // Loudness normalisation evens levels out; the level checks here measure the filters alone.
  const normalizeOff = () => post('normalize', { enabled: false });

  test('a user who is not in a voice channel is refused', async () => {
    const res = await play(urls.a440 ?? '', t.bob.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: MUSIC_TEXTS.notInVoice, code: 'NOT_IN_VOICE' });
    expect(t.discord.voice.packets).toHaveLength(0);
  });

  test('a 440 Hz tone from the file library arrives as 440 Hz ± 5', async () => {
    const since = performance.now();
    const res = await play(urls.a440 ?? '');
    expect(res.body).toMatchObject({ success: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      action: 'playing',
      song: { title: 'tone 440', platform: 'library' },
    });
    expect(t.discord.botChannel(GUILD_ID)).toBe('400000000000000010');
    // The bot offers DAVE in its voice Identify; the fake answers protocol version 0.
    expect(t.discord.voice.identifies.at(-1)?.max_dave_protocol_version).toBeGreaterThanOrEqual(1);
    const packets = await audioAfter(t.discord, since, 0, FRAMES + 10);
    expect(freqOf(packets.slice(10))).toBeCloseTo(440, -1);
    expect(Math.abs(freqOf(packets.slice(10)) - 440)).toBeLessThanOrEqual(5);
  });

  test('nightcore raises it to ≈ 550 Hz and slowed lowers it to ≈ 352 Hz, gaplessly', async () => {
    let since = await change('effects', { effects: ['nightcore'] });
    expect(Math.abs(freqOf(await audioAfter(t.discord, since, SETTLE_MS, FRAMES)) - 550)).toBeLessThanOrEqual(
      6,
    );
    expect((await status(t, t.alice.token)).playbackRate).toBe(1.25);

    since = await change('effects', { effects: ['slowed'] });
    expect(Math.abs(freqOf(await audioAfter(t.discord, since, SETTLE_MS, FRAMES)) - 352)).toBeLessThanOrEqual(
      5,
    );

    await change('effects', { effects: [] });
  });

  test('skip plays the next song; bass −12 dB lowers a 100 Hz tone by at least 8 dB', async () => {
    expect((await play(urls.a100 ?? '')).body.data).toMatchObject({ action: 'queued', position: 0 });
    await play(urls.chirp ?? '');
    await play(urls.split ?? '');
    expect((await normalizeOff()).status).toBe(200);
    let since = await change('skip');
    const flat = await audioAfter(t.discord, since, SETTLE_MS, FRAMES);
    expect(Math.abs(freqOf(flat) - 100)).toBeLessThanOrEqual(5);
    const s = await status(t, t.alice.token);
    expect(s.currentSong?.title).toBe('tone 100');
    expect(s.history[0]?.title).toBe('tone 440');

    const eq = { bass: -12, lowMid: 0, mid: 0, highMid: 0, treble: 0 };
    since = await change('equalizer', { eq });
    const cut = await audioAfter(t.discord, since, SETTLE_MS, FRAMES);
    const drop = rmsDb(decodeToMono(flat)) - rmsDb(decodeToMono(cut));
    expect(drop).toBeGreaterThanOrEqual(8);
    await post('equalizer', { eq: { ...eq, bass: 0 } });
  });

  test('pause stops the packets and resume continues from the same position', async () => {
    let since = await change('skip');
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('chirp');
    // Let it play about a second and a half.
    await audioAfter(t.discord, since, 0, 75);
    const stopped = new Promise<number>((resolve) =>
      t.discord.voice.on('speaking', (e) => {
        if (e.speaking === 0) resolve(e.at);
      }),
    );
    expect((await post('pause')).status).toBe(200);
    const pausedAt = await stopped;
    const before = t.discord.voice.packets.filter((p) => p.receivedAt <= pausedAt);
    const heardBefore = before.filter((p) => p.opus.length > 3).slice(-12, -2);
    const paused = await status(t, t.alice.token);
    expect(paused).toMatchObject({ isPaused: true, state: 'paused' });

    // Hold the pause a while; the sentinel is the first packet after resume.
    await new Promise((r) => setTimeout(r, 600));
    since = performance.now();
    expect((await post('resume')).status).toBe(200);
    const after = await audioAfter(t.discord, since, 0, 12);
    // Nothing but the library's five-frame silence tail between the pause and the resume.
    const between = t.discord.voice.packets.filter((p) => p.receivedAt > pausedAt && p.receivedAt < since);
    expect(between.filter((p) => !isSilenceFrame(p.opus))).toHaveLength(0);
    expect(between.length).toBeLessThanOrEqual(5);

    // Position from pitch: f = 200 + 100·t.
    const posBefore = (freqOf(heardBefore) - 200) / 100;
    const posAfter = (freqOf(after.slice(2)) - 200) / 100;
    expect(posBefore).toBeGreaterThan(1);
    expect(Math.abs(posAfter - posBefore)).toBeLessThan(0.5);
    expect(Math.abs((await status(t, t.alice.token)).elapsedTime - paused.elapsedTime)).toBeLessThan(1);
  });

  test('a pause right after an effect change holds (the new track starts paused)', async () => {
    const stopped = new Promise<number>((resolve) =>
      t.discord.voice.on('speaking', (e) => {
        if (e.speaking === 0) resolve(e.at);
      }),
    );
    // Both requests at once: the pause lands while the new ffmpeg is still starting.
    const [fx, pause] = await Promise.all([post('effects', { effects: ['echo'] }), post('pause')]);
    expect([fx.status, pause.status]).toEqual([200, 200]);
    const pausedAt = await stopped;
    await new Promise((r) => setTimeout(r, 600));
    const since = performance.now();
    expect(await status(t, t.alice.token)).toMatchObject({ state: 'paused', activeEffects: ['echo'] });
    const sneaked = t.discord.voice.packets.filter((p) => p.receivedAt > pausedAt && !isSilenceFrame(p.opus));
    expect(sneaked).toHaveLength(0);
    expect((await post('resume')).status).toBe(200);
    await audioAfter(t.discord, since, 0, 5);
    expect((await post('effects', { effects: [] })).status).toBe(200);
  });

  test('seeking to 50 % of a song whose pitch changes halfway plays the second pitch', async () => {
    let since = await change('skip');
    const first = await audioAfter(t.discord, since, SETTLE_MS, 25);
    expect(Math.abs(freqOf(first) - 330)).toBeLessThanOrEqual(5);
    const duration = (await status(t, t.alice.token)).currentSong?.duration ?? 0;
    expect(duration).toBe(8);
    since = await change('seek', { time: duration * 0.5 });
    expect((await status(t, t.alice.token)).elapsedTime).toBeGreaterThanOrEqual(4);
    expect(Math.abs(freqOf(await audioAfter(t.discord, since, SETTLE_MS, 25)) - 660)).toBeLessThanOrEqual(5);
  });

  test('a stop sends five silence frames after the last audio, then no more packets', async () => {
    const stopped = new Promise<number>((resolve) =>
      t.discord.voice.on('speaking', (e) => {
        if (e.speaking === 0) resolve(e.at);
      }),
    );
    const requestAt = performance.now();
    expect((await post('stop')).status).toBe(200);
    const at = await stopped;
    const after = t.discord.voice.packets.filter((p) => p.receivedAt >= requestAt);
    const lastAudio = after.findLastIndex((p) => !isSilenceFrame(p.opus));
    const tail = after.slice(lastAudio + 1).filter((p) => p.receivedAt <= at + 100);
    expect(tail.length).toBe(5);
    expect(tail.every((p) => isSilenceFrame(p.opus))).toBe(true);
  });
});
