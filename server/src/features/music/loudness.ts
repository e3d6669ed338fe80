import type { ProcessSpawner } from '../../platform/process/index.ts';
import type { TrackInput } from './ffmpeg.ts';
import { runMediaJob } from './media-jobs.ts';

/** A measurement reads at most this much of a track (the integrated loudness of a long mix settles early). */
const MEASURE_SECONDS = 600;
const MEASURE_TIMEOUT_MS = 120_000;
const CACHE_MAX = 1000;
const MEASURE_NICE = 15;

/**
 * Integrated loudness (EBU R128, LUFS) per song, measured once by ffmpeg's `ebur128` filter in a media
 * job (two at once, time-limited) and kept for the process's life (bounded). The player applies the gain
 * to TARGET_LUFS in its live chain; a song not measured yet plays at 0 dB until its measurement arrives.
 */
export class LoudnessCache {
  private readonly known = new Map<string, number | null>();
  private readonly running = new Map<string, Promise<number | null>>();
  private readonly ffmpegPath: string;
  private readonly processes: ProcessSpawner;

  constructor(ffmpegPath: string, processes: ProcessSpawner) {
    this.ffmpegPath = ffmpegPath;
    this.processes = processes;
  }

  /** The measured loudness, or undefined while unknown (null: measured as silent or not measurable). */
  get(key: string): number | null | undefined {
    return this.known.get(key);
  }

  /** Starts measuring a song unless it is known or being measured. */
  measure(key: string, input: () => Promise<TrackInput>): Promise<number | null> {
    if (this.known.has(key)) return Promise.resolve(this.known.get(key) ?? null);
    let p = this.running.get(key);
    if (!p) {
      p = input()
        .then((i) => (i.kind === 'url' ? measureLoudness(this.processes, this.ffmpegPath, i) : null))
        .catch(() => null)
        .then((lufs) => {
          this.running.delete(key);
          if (this.known.size >= CACHE_MAX) this.known.delete(this.known.keys().next().value ?? '');
          this.known.set(key, lufs);
          return lufs;
        });
      this.running.set(key, p);
    }
    return p;
  }
}

/** ffmpeg's `ebur128` summary line "I: -22.0 LUFS" of a URL input; null when it could not say. */
export async function measureLoudness(
  processes: ProcessSpawner,
  ffmpegPath: string,
  input: Extract<TrackInput, { kind: 'url' }>,
): Promise<number | null> {
  const headers = input.headers
    ? [
        '-headers',
        Object.entries(input.headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join(''),
      ]
    : [];
  const { output, timedOut } = await runMediaJob(
    processes,
    ffmpegPath,
    [
      '-hide_banner',
      '-nostats',
      '-protocol_whitelist',
      'http,https,tcp,tls,crypto,hls',
      ...headers,
      '-t',
      String(MEASURE_SECONDS),
      '-i',
      input.url,
      '-vn',
      '-af',
      'ebur128=framelog=verbose', // the per-100 ms lines at verbose level: only the summary prints
      '-f',
      'null',
      '-',
    ],
    // Background work that decodes minutes of audio as fast as it can: below the playing ffmpegs, which keep
    // only a few frames ahead of the listener (issue 48).
    { timeoutMs: MEASURE_TIMEOUT_MS, read: 'stderr', nice: MEASURE_NICE },
  );
  if (timedOut) return null;
  const summary = output.slice(output.lastIndexOf('Integrated loudness:'));
  const lufs = Number.parseFloat(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1] ?? '');
  // −70 LUFS is the gate: a track that quiet is silence, not something to raise by 50 dB.
  return Number.isFinite(lufs) && lufs > -70 ? lufs : null;
}
