import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ProcessSpawner } from '../../platform/process/index.ts';
import { eventually } from '../../test/eventually.ts';
import type { ReceivedPacket } from '../../test/fake-discord-bot/index.ts';
import { decodeToMono, dominantFrequency, isSilenceFrame, rmsDb } from '../../test/fake-discord-bot/index.ts';
import { EVENT_DEADLINE_MS } from '../../test/time-scale.ts';
import { TARGET_LUFS } from './ffmpeg.ts';
import { LoudnessCache } from './loudness.ts';
import {
  addToLibrary,
  api,
  GUILD_ID,
  type MusicTestContext,
  startMusicApp,
  status,
  tone,
} from './test-helpers.ts';
import { WarmDecoders } from './warm-decoders.ts';

/**
 * Issue 48, point 5: effects, the equalizer and the volume change the running chain in the server; no
 * ffmpeg starts for them (each start is counted where the platform's process spawner starts programs), and
 * the packets that follow carry the change. A seek still starts one (which shows the count counts).
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('live effects, equalizer and volume', () => {
  let t: MusicTestContext;
  let url = '';
  const spawn = vi.spyOn(ProcessSpawner.prototype, 'spawn');
  const take = vi.spyOn(WarmDecoders.prototype, 'takeSoon');
  /** What the takes gave, once settled: a warm ffmpeg, or null (none under way: the track started its own). */
  const taken = () => take.mock.settledResults.map((r) => (r.type === 'fulfilled' ? r.value : null));
  /** The ffmpegs started ahead and waiting (no track yet) so far. */
  const warmStarts = () => spawn.mock.calls.filter(([, args]) => args.includes('concat')).length;
  /**
   * The decoding ffmpegs a track started with so far: those started for it, and the warm ones given its input
   * (ffprobe and the loudness measurements are other programs).
   */
  const decoders = () =>
    spawn.mock.calls.filter(([, args]) => args.includes('f32le') && !args.includes('concat')).length +
    taken().filter((w) => w !== null).length;
  const post = (path: string, body?: Record<string, unknown>) =>
    api(t, t.alice.token, 'POST', `/api/music/${path}/${GUILD_ID}`, body);

  /** The loudness measurements asked for in this test (each resolves once the players have its gain). */
  const measure = vi.spyOn(LoudnessCache.prototype, 'measure');
  const measurements = (from = 0) =>
    Promise.all(measure.mock.results.slice(from).map((r) => r.value as Promise<number | null>));

  /**
   * A second of audio sent after a change was answered: the first three packets after the answer are
   * skipped (the voice player had one prepared, and a stall of this machine may delay one or two more);
   * `skip` more to hear past a loudness ramp (a second: 50 packets).
   */
  const heardAfter = (answeredAt: number, skip = 3): Promise<Float32Array> =>
    new Promise((resolve, reject) => {
      const picked = () =>
        t.discord.voice.packets
          .filter((p) => p.receivedAt >= answeredAt && !isSilenceFrame(p.opus))
          .slice(skip);
      const check = (): boolean => {
        const got: ReceivedPacket[] = picked();
        if (got.length < 50) return false;
        t.discord.voice.off('packet', check);
        clearTimeout(timer);
        resolve(decodeToMono(got.slice(0, 50)));
        return true;
      };
      const timer = setTimeout(() => reject(new Error('the audio did not come')), EVENT_DEADLINE_MS);
      if (!check()) t.discord.voice.on('packet', check);
    });
  const change = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status).toBe(200);
    return heardAfter(performance.now());
  };

  let next = '';
  /** The 440 Hz tone's level with normalisation off (first test). */
  let plainDb = 0;
  beforeAll(async () => {
    t = await startMusicApp();
    url = await addToLibrary(t, t.alice.token, 'tone 440.wav', await tone(440, 60));
    next = await addToLibrary(t, t.alice.token, 'tone 660.wav', await tone(660, 30));
  });
  afterAll(async () => {
    spawn.mockRestore();
    take.mockRestore();
    measure.mockRestore();
    await t?.closeAll();
  });

  test('nightcore, slowed, bass boost, echo, 8d, the equalizer and the volume start no ffmpeg, and are heard', async () => {
    expect((await post('normalize', { enabled: false })).status).toBe(200);
    const play = await api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url });
    expect(play.status).toBe(200);
    const plain = await heardAfter(performance.now());
    plainDb = rmsDb(plain);
    expect(Math.abs(dominantFrequency(plain) - 440)).toBeLessThanOrEqual(5);
    const started = decoders();
    expect(started).toBe(1);
    // The first song after the join took the warm ffmpeg started during the voice handshake: none of its own.
    expect(taken()).toHaveLength(1);
    expect(taken()[0]).not.toBeNull();

    expect(
      Math.abs(dominantFrequency(await change('effects', { effects: ['nightcore'] })) - 550),
    ).toBeLessThanOrEqual(6);
    expect((await status(t, t.alice.token)).playbackRate).toBe(1.25);
    expect(
      Math.abs(dominantFrequency(await change('effects', { effects: ['slowed'] })) - 352),
    ).toBeLessThanOrEqual(5);
    await change('effects', { effects: ['bassboost', 'echo', '8d'] });
    expect(Math.abs(dominantFrequency(await change('effects', { effects: [] })) - 440)).toBeLessThanOrEqual(
      5,
    );

    const cut = await change('equalizer', { eq: { bass: 0, lowMid: -12, mid: 0, highMid: 0, treble: 0 } });
    expect(rmsDb(plain) - rmsDb(cut)).toBeGreaterThanOrEqual(6);
    const flat = await change('equalizer', { eq: { bass: 0, lowMid: 0, mid: 0, highMid: 0, treble: 0 } });
    expect(Math.abs(rmsDb(flat) - rmsDb(plain))).toBeLessThan(1);

    const half = await change('volume', { volume: 50 });
    expect(rmsDb(plain) - rmsDb(half)).toBeGreaterThan(5);
    expect(rmsDb(plain) - rmsDb(half)).toBeLessThan(7);
    expect((await post('volume', { volume: 100 })).status).toBe(200);

    expect(decoders()).toBe(started);
    // A seek is a new position in the file: that one takes an ffmpeg, the one waiting warm for this guild
    // (issue 48: no process starts on the seek's path); another is started ahead after it. (The first warm
    // one went to the first song; the second was started once that song was heard.)
    await eventually(() => expect(warmStarts()).toBe(2));
    const spawnsBefore = spawn.mock.calls.length;
    expect((await post('seek', { time: 30 })).status).toBe(200);
    expect(decoders()).toBe(started + 1);
    expect(taken().at(-1)).not.toBeNull();
    // What started since is the next warm one, once the seek was heard.
    expect(spawn.mock.calls.slice(spawnsBefore).map(([, args]) => args.includes('concat'))).toEqual([true]);
    expect(Math.abs(dominantFrequency(await heardAfter(performance.now())) - 440)).toBeLessThanOrEqual(5);
    expect((await post('stop')).status).toBe(200);
  });

  test('the next song’s ffmpeg is started ahead: a skip switches to it without starting one', async () => {
    const play = (u: string) =>
      api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url: u });
    expect((await play(url)).status).toBe(200);
    const before = decoders();
    expect((await play(next)).status).toBe(200);
    // The queued song's ffmpeg starts a moment later, while the first song plays.
    await eventually(() => expect(decoders()).toBe(before + 1));
    expect((await post('skip')).status).toBe(200);
    expect(decoders()).toBe(before + 1);
    expect(Math.abs(dominantFrequency(await heardAfter(performance.now())) - 660)).toBeLessThanOrEqual(5);
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('tone 660');
    expect((await post('stop')).status).toBe(200);
  });

  test('normalisation on and off start no ffmpeg: the level moves to the normalised one and back, live', async () => {
    expect((await post('normalize', { enabled: false })).status).toBe(200);
    expect((await api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url })).status).toBe(
      200,
    );
    const started = decoders();
    // Asked after its first packet (the first test measured it already: the answer is the kept one).
    const [lufs] = await measurements();
    expect(lufs).toEqual(expect.any(Number));
    const gainDb = TARGET_LUFS - (lufs ?? 0);
    expect(gainDb).toBeGreaterThan(3); // a quiet tone: normalisation raises it
    // Past the second the gain takes to move (50 packets).
    expect((await post('normalize', { enabled: true })).status).toBe(200);
    expect(rmsDb(await heardAfter(performance.now(), 55)) - plainDb).toBeCloseTo(gainDb, 0);
    expect((await post('normalize', { enabled: false })).status).toBe(200);
    expect(Math.abs(rmsDb(await heardAfter(performance.now(), 55)) - plainDb)).toBeLessThan(0.5);
    expect(decoders()).toBe(started);
    expect((await post('stop')).status).toBe(200);
  });

  test('a song never played starts without waiting for its loudness and reaches the normalised level once it is measured, with no ffmpeg start', async () => {
    // The same tone as another file: never played, never measured.
    const fresh = await addToLibrary(t, t.alice.token, 'tone 440 again.wav', await tone(440, 30));
    expect((await post('normalize', { enabled: true })).status).toBe(200);
    const asked = measure.mock.results.length;
    const before = decoders();
    expect(
      (await api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url: fresh })).status,
    ).toBe(200);
    expect(decoders()).toBe(before + 1);
    // Its measurement was asked after its first packet; once it is in, the gain moves there over a second.
    expect(measure.mock.results.length).toBeGreaterThan(asked);
    const [lufs] = await measurements(asked);
    expect(lufs).toEqual(expect.any(Number));
    const gainDb = TARGET_LUFS - (lufs ?? 0);
    expect(gainDb).toBeGreaterThan(3);
    expect(rmsDb(await heardAfter(performance.now(), 55)) - plainDb).toBeCloseTo(gainDb, 0);
    expect(decoders()).toBe(before + 1);
    expect((await post('stop')).status).toBe(200);
  });
});
