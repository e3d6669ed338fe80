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
  /** It was a warm ffmpeg given its input (no process started for it). */
  warm: boolean;
  /** ffmpeg's stderr (errors only), for the log when a track fails. */
  stderr: () => string;
  /** Resolves when ffmpeg has exited: `crashed` when it ended on an error or a signal we did not send. */
  exited: Promise<{ crashed: boolean; code: number | null; signal: string | null }>;
};

/**
 * The only protocols an input may use: an HLS playlist from a service must not make ffmpeg open local files
 * (or its own pipes).
 */
const NETWORK_PROTOCOLS = 'http,https,tcp,tls,crypto,hls';
/** Network inputs reconnect on drops. */
const RECONNECT: [string, string][] = [
  ['reconnect', '1'],
  ['reconnect_streamed', '1'],
  ['reconnect_delay_max', '5'],
];

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
  const network = [
    ...['-protocol_whitelist', NETWORK_PROTOCOLS],
    ...RECONNECT.flatMap(([k, v]) => [`-${k}`, v]),
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
 * The ffconcat script that gives a warm ffmpeg (see warm-decoders.ts) its input and position, or null when the
 * input cannot be said in one (request headers, which would need line breaks). The input's own protocols are
 * network ones only (the per-file `protocol_whitelist`: the warm ffmpeg's own whitelist is `pipe`, for this
 * script), and `inpoint` seeks as `-ss` does (to the packet at or before it: up to one frame early).
 */
export function warmScript(input: TrackInput, startSeconds: number): string | null {
  if (input.headers || /[\r\n]/.test(input.url)) return null;
  // Quoted as ffconcat reads a token: literal up to the next quote; a quote itself is '\''.
  const quote = (v: string) => `'${v.replaceAll("'", "'\\''")}'`;
  return [
    'ffconcat version 1.0',
    `file ${quote(input.url)}`,
    `option protocol_whitelist ${quote(NETWORK_PROTOCOLS)}`,
    ...RECONNECT.map(([k, v]) => `option ${k} ${v}`),
    ...(startSeconds > 0 ? [`inpoint ${startSeconds.toFixed(3)}`] : []),
    '',
  ].join('\n');
}

/** A warm ffmpeg's arguments: everything but its input, which it reads from stdin (`warmScript`). */
export function warmArgs(): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'pipe'],
    ...['-f', 'concat', '-safe', '0', '-i', 'pipe:0'],
    ...decoderArgs(),
    'pipe:1',
  ];
}

/**
 * Starts one ffmpeg for one track from one position, through the platform's process spawner (a fork from
 * the server would stall every guild's audio for milliseconds), or gives the input to a warm one started
 * ahead (`warm`, when the input can be said in a script): then no process starts on the change's path.
 * Rejects when ffmpeg cannot be started at all (a missing binary), so a play says so instead of "playing" a
 * track that never sounds.
 */
export async function startDecoder(o: DecodeOptions & { warm?: SpawnedProcess | null }): Promise<Decoder> {
  const script = o.warm ? warmScript(o.input, o.startSeconds) : null;
  let child: SpawnedProcess;
  if (o.warm && script !== null) {
    child = o.warm;
    child.input(script);
  } else {
    o.warm?.kill(); // not usable for this input
    try {
      child = await o.processes.spawn(o.ffmpegPath, ffmpegArgs(o), { nice: o.background ? DECODER_NICE : 0 });
    } catch (e) {
      throw new Error(`ffmpeg could not be started: ${(e as Error).message}`);
    }
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
    warm: child === o.warm,
    kill: () => {
      killed = true;
      child.kill();
      pcm.destroy();
    },
    stderr: () => child.text(),
    exited,
  };
}
