import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { realClock } from '../../platform/feature.ts';
import { ProcessSpawner } from '../../platform/process/index.ts';
import { RangeLoopback } from '../../platform/transfer/range-loopback.ts';
import { eventually } from '../../test/eventually.ts';
import { dominantFrequency } from '../../test/fake-discord-bot/index.ts';
import { type Decoder, startDecoder, type TrackInput, warmScript } from './ffmpeg.ts';
import { chirp } from './test-helpers.ts';
import { MAX_WARM, WarmDecoders } from './warm-decoders.ts';

/**
 * Issue 48, point 5: "where a process must start, start it sooner". A warm ffmpeg has started and waits for
 * its input; a seek or a new song gives it one, and what it decodes is what a fresh ffmpeg with `-ss` would.
 */
describe('warm ffmpegs', () => {
  const log = pino({ level: 'silent' });
  let spawner: ProcessSpawner;
  let loopback: RangeLoopback;
  let url = '';
  let pool: WarmDecoders | null = null;
  const makePool = (ffmpegPath = 'ffmpeg') => {
    pool = new WarmDecoders({ ffmpegPath, processes: spawner, log });
    return pool;
  };
  const waitingBecomes = (n: number) => eventually(() => expect(pool?.waiting).toBe(n));

  beforeAll(async () => {
    // A 30 s chirp (200 + 100·t Hz: its pitch says where in the song it is), served with Range by the
    // platform's loopback, as the library's songs are.
    const song = await chirp(30);
    loopback = new RangeLoopback(realClock);
    ({ url } = await loopback.open(
      song.length,
      async (start, end) => Readable.from([song.subarray(start, end + 1)]),
      60_000,
    ));
    spawner = new ProcessSpawner();
  });
  afterEach(() => {
    pool?.close();
    pool = null;
  });
  afterAll(async () => {
    await spawner.close();
    await loopback.close();
  });

  /** One second of a decoder's audio (48 kHz stereo floats), down to mono. */
  async function firstSecond(d: Decoder): Promise<Float32Array> {
    const frames = 48_000;
    await eventually(() => expect(d.pcm.frames >= frames || d.pcm.ended).toBe(true));
    const stereo = new Float32Array(frames * 2);
    const got = d.pcm.read(stereo, frames);
    const mono = new Float32Array(got);
    for (let i = 0; i < got; i++) mono[i] = ((stereo[2 * i] ?? 0) + (stereo[2 * i + 1] ?? 0)) / 2;
    return mono;
  }
  /** The song position the chirp was at when that second began. */
  const positionOf = (mono: Float32Array) => (dominantFrequency(mono) - 200) / 100 - 0.5;

  test('one waits per guild in a voice channel, at most four; a taken one is replaced; a guild that leaves lets its one go', async () => {
    const pool = makePool();
    const guilds = Array.from({ length: MAX_WARM + 1 }, () => ({}));
    pool.hold(guilds[0] as object);
    await waitingBecomes(1);
    for (const g of guilds) pool.hold(g);
    await waitingBecomes(MAX_WARM);
    const taken = pool.take();
    expect(taken).not.toBeNull();
    expect(pool.waiting).toBe(MAX_WARM - 1);
    pool.refill(); // what the taker does once its change has audio
    await waitingBecomes(MAX_WARM);
    taken?.kill();
    for (const g of guilds.slice(1)) pool.release(g);
    expect(pool.waiting).toBe(1);
    pool.release(guilds[0] as object);
    expect(pool.waiting).toBe(0);
    expect(pool.take()).toBeNull();
  });

  test('a take while the warm ffmpeg is still starting (the first song, just after the join) gets that one: no second ffmpeg starts', async () => {
    const pool = makePool();
    const spawned = vi.spyOn(spawner, 'spawn');
    try {
      pool.hold({});
      expect(pool.waiting).toBe(0); // its start is under way
      const taken = await pool.takeSoon();
      expect(taken).not.toBeNull();
      expect(spawned).toHaveBeenCalledTimes(1);
      // With nothing under way a take does not wait: the song starts its own.
      expect(await pool.takeSoon()).toBeNull();
      expect(spawned).toHaveBeenCalledTimes(1);
      taken?.kill();
    } finally {
      spawned.mockRestore();
    }
  });

  test('a take waiting for a start that fails, or for a pool that closes, gets none', async () => {
    const broken = makePool('/nonexistent/ffmpeg');
    broken.hold({});
    expect(await broken.takeSoon()).toBeNull();
    const closing = makePool();
    closing.hold({});
    const waiting = closing.takeSoon();
    closing.close();
    expect(await waiting).toBeNull();
  });

  test('a warm ffmpeg given the song and a position decodes it from there, as a fresh one with -ss does', async () => {
    const pool = makePool();
    pool.hold({});
    await waitingBecomes(1);
    const input: TrackInput = { kind: 'url', url };
    const warm = await startDecoder({
      ffmpegPath: 'ffmpeg',
      processes: spawner,
      input,
      startSeconds: 5,
      warm: pool.take(),
    });
    const fresh = await startDecoder({ ffmpegPath: 'ffmpeg', processes: spawner, input, startSeconds: 5 });
    try {
      expect(warm.warm).toBe(true);
      expect(fresh.warm).toBe(false);
      const [a, b] = [positionOf(await firstSecond(warm)), positionOf(await firstSecond(fresh))];
      // The pitch read from a second of a sweep is a coarse clock (its scan leans to the low end of the sweep: ±0.5 s); the two against each other are
      // not: `inpoint` lands on the packet at or before the position (a WAV packet: 1024 samples, 43 ms).
      expect(Math.abs(b - 5)).toBeLessThan(0.5);
      expect(Math.abs(a - b)).toBeLessThan(0.05);
    } finally {
      warm.kill();
      fresh.kill();
    }
  });

  test('the input may use network protocols only: a warm ffmpeg told to read a local file decodes nothing', async () => {
    const pool = makePool();
    pool.hold({});
    await waitingBecomes(1);
    const d = await startDecoder({
      ffmpegPath: 'ffmpeg',
      processes: spawner,
      input: { kind: 'url', url: 'file:///etc/hostname' },
      startSeconds: 0,
      warm: pool.take(),
    });
    const exit = await d.exited;
    expect(exit.crashed).toBe(true);
    expect(d.pcm.frames).toBe(0);
    expect(d.stderr()).toMatch(/not on whitelist/);
  });

  test('the script quotes what ffconcat would read otherwise; an input with request headers is not given to one', () => {
    const script = warmScript({ kind: 'url', url: "http://h/a'b c.mp3?x=1" }, 61.5);
    expect(script).toContain(`file 'http://h/a'\\''b c.mp3?x=1'`);
    expect(script).toContain('inpoint 61.500');
    expect(script).toContain(`option protocol_whitelist 'http,https,tcp,tls,crypto,hls'`);
    expect(warmScript({ kind: 'url', url: 'http://h/a', headers: { cookie: 'x' } }, 0)).toBeNull();
    expect(warmScript({ kind: 'url', url: 'http://h/a\nfile /etc/passwd' }, 0)).toBeNull();
  });

  test('an ffmpeg that cannot start makes no loop of starts: the pool tries again only after the next take', async () => {
    const pool = makePool('/nonexistent/ffmpeg');
    const tried = vi.spyOn(spawner, 'spawn');
    try {
      pool.hold({});
      expect(tried).toHaveBeenCalledTimes(1);
      await expect(tried.mock.results[0]?.value).rejects.toThrow(/ENOENT/);
      pool.refill();
      expect(tried).toHaveBeenCalledTimes(1);
      expect(pool.waiting).toBe(0);
      expect(pool.take()).toBeNull(); // the song starts its own ffmpeg (which says it is missing)
      pool.refill();
      expect(tried).toHaveBeenCalledTimes(2);
    } finally {
      tried.mockRestore();
    }
  });
});
