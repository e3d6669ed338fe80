import type { FastifyBaseLogger } from 'fastify';
import type { ProcessSpawner, SpawnedProcess } from '../../platform/process/index.ts';
import { warmArgs } from './ffmpeg.ts';

/** The most warm ffmpegs kept at once, whatever the number of guilds in a voice channel. */
export const MAX_WARM = 4;

/**
 * ffmpegs started ahead of their work (issue 48: "where a process must start, start it sooner"): each has
 * loaded its libraries and waits on stdin for the script that names its input and position (`warmScript`).
 * A seek, a song with no prepared spare, or a crash restart takes one, so no process starts on the path of
 * the change: its first audio comes after opening the input (≈ 5 ms on a local file, against 60–210 ms for
 * a process start, measured with Debian's ffmpeg here and with a 150 ms slower start emulated).
 *
 * One is kept per guild whose player sits in a voice channel (`hold`), at most MAX_WARM; the taker calls
 * `refill` once its change has audio (or failed), so the next one's start does not compete with it. The cost, per warm ffmpeg: an idle process of ≈ 11 MB private memory
 * (Debian's ffmpeg: 54 MB resident, most of it shared libraries), and its start's CPU (≈ 0.1–0.2 s)
 * spent ahead of the change instead of on its path. One that ends while it waits (killed, or an ffmpeg that
 * cannot run) is not replaced before the next take or hold, so a broken ffmpeg never makes a loop of starts.
 */
export class WarmDecoders {
  private readonly ready: SpawnedProcess[] = [];
  private starting = 0;
  /** Takers waiting for a start under way (`takeSoon`): never more than there are starts. */
  private readonly waiters: ((warm: SpawnedProcess | null) => void)[] = [];
  private readonly holders = new Set<object>();
  /** A start failed or a waiting one ended: no more starts until the next take or hold. */
  private stalled = false;
  private closed = false;

  private readonly ffmpegPath: string;
  private readonly processes: ProcessSpawner;
  private readonly log: FastifyBaseLogger;

  constructor(o: { ffmpegPath: string; processes: ProcessSpawner; log: FastifyBaseLogger }) {
    this.ffmpegPath = o.ffmpegPath;
    this.processes = o.processes;
    this.log = o.log;
  }

  /** A guild's player is in a voice channel: one warm ffmpeg is kept for it. */
  hold(holder: object): void {
    if (this.holders.has(holder)) return;
    this.holders.add(holder);
    this.stalled = false;
    this.refill();
  }

  /** It left (or is gone): its warm ffmpeg is no longer kept. */
  release(holder: object): void {
    if (!this.holders.delete(holder)) return;
    while (this.ready.length > this.wanted) this.ready.pop()?.kill();
  }

  /**
   * A warm ffmpeg, now the caller's (to give its input with `startDecoder`, or kill), or null when none waits.
   * The caller calls `refill` once its change has audio.
   */
  take(): SpawnedProcess | null {
    this.stalled = false;
    return this.ready.shift() ?? null;
  }

  /**
   * A warm ffmpeg now; when none waits but one is starting, that one once it has started (it began before
   * any ffmpeg started now would: the first song after the bot joins gets the one started during the voice
   * handshake, instead of a second process starting cold beside it); null when none is under way.
   */
  takeSoon(): Promise<SpawnedProcess | null> {
    const now = this.take();
    if (now || this.waiters.length >= this.starting) return Promise.resolve(now);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Starts what is missing (none while stalled). */
  refill(): void {
    while (!this.closed && !this.stalled && this.ready.length + this.starting < this.wanted) {
      this.starting++;
      void this.startOne();
    }
  }

  /** How many wait now. */
  get waiting(): number {
    return this.ready.length;
  }

  /** Ends the waiting ffmpegs and starts no more. */
  close(): void {
    this.closed = true;
    for (const warm of this.ready.splice(0)) warm.kill();
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }

  private get wanted(): number {
    return Math.min(MAX_WARM, this.holders.size);
  }

  private async startOne(): Promise<void> {
    let warm: SpawnedProcess;
    try {
      warm = await this.processes.spawn(this.ffmpegPath, warmArgs(), { stdin: true });
    } catch (err) {
      this.starting--;
      this.stalled = true; // a missing ffmpeg: each song's own start says so
      this.log.debug({ err: (err as Error).message }, 'music: a warm ffmpeg could not be started');
      // A taker waiting for this one starts its own (as when none was under way).
      while (this.waiters.length > this.starting) this.waiters.shift()?.(null);
      return;
    }
    this.starting--;
    const waiter = this.waiters.shift();
    if (waiter) {
      // Taken as it started: its user refills once its change has audio.
      if (this.closed) {
        warm.kill();
        waiter(null);
      } else waiter(warm);
      return;
    }
    if (this.closed || this.ready.length >= this.wanted) {
      warm.kill();
      return;
    }
    this.ready.push(warm);
    void warm.exited.then(() => {
      const at = this.ready.indexOf(warm);
      if (at === -1) return; // taken: its end is its user's
      this.ready.splice(at, 1);
      this.stalled = true;
      this.log.debug({ stderr: warm.text().trim() }, 'music: a warm ffmpeg ended while it waited');
    });
  }
}
