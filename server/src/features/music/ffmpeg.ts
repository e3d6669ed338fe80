import os from 'node:os';
import type { ProcessSpawner, SpawnedProcess } from '../../platform/process/index.ts';
import { PcmBuffer } from './pcm-buffer.ts';

/** EBU R128 target loudness of every track when normalisation is on (streaming services use −14…−16). */
export const TARGET_LUFS = -16;
/** The most a quiet track is raised or a loud one lowered. */
const MAX_GAIN_DB = 20;

/**
 * How a track's loudness is evened out: off; not measured yet (played at 0 dB until its measurement
 * arrives); or measured, the gain that brings it to TARGET_LUFS. The gain is the live chain's
 * (dsp/chain.ts `setSourceGain`): ffmpeg only decodes.
 */
export type Loudness = { kind: 'off' } | { kind: 'unmeasured' } | { kind: 'gain'; lufs: number };

/** The static gain normalisation applies to a measured song (0 for the others), in dB. */
export function loudnessGainDb(loudness: Loudness): number {
  if (loudness.kind !== 'gain') return 0;
  return Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, TARGET_LUFS - loudness.lufs));
}

export { playbackRate } from './dsp/chain.ts';

/** Where ffmpeg reads a track: a URL it opens itself (HTTP, HLS; library files through the loopback). */
export type TrackInput = {
  kind: 'url';
  url: string;
  headers?: Record<string, string>;
  /**
   * Until when (epoch ms) a restart of the same song (a seek, a crash restart) may open
   * this URL again instead of asking the source for a new one: a YouTube player request is a round trip
   * to YouTube on the path of every change. Absent: asked again each time (SoundCloud's signed HLS URLs).
   */
  reusableUntil?: number;
};

export type DecodeOptions = {
  ffmpegPath: string;
  processes: ProcessSpawner;
  input: TrackInput;
  startSeconds: number;
  /** Work that can wait (the next song prepared ahead): below the server's priority from its start. */
  background?: boolean;
};

export type Decoder = {
  /** The decoded audio, 48 kHz stereo floats, held a few seconds ahead. */
  pcm: PcmBuffer;
  kill: () => void;
  /** ffmpeg's stderr (errors only), for the log when a track fails. */
  stderr: () => string;
  /** Resolves when ffmpeg has exited: `crashed` when it ended on an error or a signal we did not send. */
  exited: Promise<{ crashed: boolean; code: number | null; signal: string | null }>;
};

/** ffmpeg's arguments: seek, decode, and write raw 48 kHz stereo floats. */
export function ffmpegArgs(o: Omit<DecodeOptions, 'ffmpegPath' | 'processes'>): string[] {
  const input = o.input.url;
  const headers = o.input.headers
    ? [
        '-headers',
        Object.entries(o.input.headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join(''),
      ]
    : [];
  // Network inputs: reconnect on drops, and only network protocols (an HLS playlist from a service must
  // not make ffmpeg open local files).
  const network = [
    '-protocol_whitelist',
    'http,https,tcp,tls,crypto,hls',
    '-reconnect',
    '1',
    '-reconnect_streamed',
    '1',
    '-reconnect_delay_max',
    '5',
  ];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    ...network,
    ...headers,
    ...(o.startSeconds > 0 ? ['-ss', o.startSeconds.toFixed(3)] : []),
    '-i',
    input,
    ...decoderArgs(),
    'pipe:1',
  ];
}

/**
 * Everything after the input: drop video, resample to 48 kHz stereo and write it raw as 32-bit floats,
 * each decoded frame at once (`-flush_packets`), so a new track's first audio reaches the server without
 * waiting for a fuller buffer. No loudness filter: normalisation is a gain in the live chain, so a song
 * never measured starts as fast as any other and switching it on or off starts no ffmpeg. Floats, not
 * 16-bit: a loud master's inter-sample peaks stay for the chain's limiter. The output target follows.
 */
export function decoderArgs(): string[] {
  return [
    '-vn',
    '-af',
    'aresample=48000',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-c:a',
    'pcm_f32le',
    '-f',
    'f32le',
    '-flush_packets',
    '1',
  ];
}

/**
 * ffmpeg starts at the server's priority and goes below it once its first audio is out: its start (loading
 * its libraries, opening and seeking the input, ≈ 50 ms of CPU) is on the path of a seek or a new song, and at
 * nice 10 beside a busy core it waited (a seek's p95 went from 0.44 to 0.99 s); after that it only decodes
 * ahead in short bursts (seconds of audio wait in the server), and the server's 20 ms beat for every guild
 * comes first.
 */
const DECODER_NICE = 10;

/** Lowers a started ffmpeg's priority (a syscall, no fork); a process already gone is no matter. */
function settle(pid: number): void {
  try {
    os.setPriority(pid, Math.min(19, os.getPriority() + DECODER_NICE));
  } catch {
    // exited meanwhile
  }
}

/**
 * Starts one ffmpeg for one track from one position, through the platform's process spawner (a fork from
 * the server would stall every guild's audio for milliseconds). Rejects when ffmpeg cannot be started at
 * all (a missing binary), so a play says so instead of "playing" a track that never sounds.
 */
export async function startDecoder(o: DecodeOptions): Promise<Decoder> {
  let child: SpawnedProcess;
  try {
    child = await o.processes.spawn(o.ffmpegPath, ffmpegArgs(o), { nice: o.background ? DECODER_NICE : 0 });
  } catch (e) {
    throw new Error(`ffmpeg could not be started: ${(e as Error).message}`);
  }
  let killed = false;
  const exited = child.exited.then(({ code, signal }) => ({
    crashed: !killed && (code !== 0 || signal !== null),
    code,
    signal,
  }));
  const pcm = new PcmBuffer(child.output);
  if (!o.background) pcm.once('data', () => settle(child.pid));
  return {
    pcm,
    kill: () => {
      killed = true;
      child.kill();
      pcm.destroy();
    },
    stderr: () => child.text(),
    exited,
  };
}
