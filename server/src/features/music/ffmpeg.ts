import type { Readable } from 'node:stream';
import { EQ_BANDS, type EqSettings, MUSIC_EFFECTS, type MusicEffect } from '@guildhall/common';
import type { ProcessSpawner, SpawnedProcess } from '../../platform/process/index.ts';

/** EBU R128 target loudness of every track when normalisation is on (streaming services use −14…−16). */
export const TARGET_LUFS = -16;
/** The most a quiet track is raised or a loud one lowered. */
const MAX_GAIN_DB = 20;

/**
 * How a track's loudness is evened out: off; `loudnorm` in its dynamic (one-pass) mode while the track's
 * loudness is not yet measured; or, once measured, the static gain that brings it to TARGET_LUFS (cheaper,
 * and an ffmpeg with it starts at once instead of filling loudnorm's 3 s window).
 */
export type Loudness = { kind: 'off' } | { kind: 'dynamic' } | { kind: 'gain'; lufs: number };

/** The level settings of a guild: volume 0–200 % and loudness normalisation. */
export type LevelOptions = { volume: number; loudness: Loudness };
const FLAT_LEVEL: LevelOptions = { volume: 100, loudness: { kind: 'off' } };

function levelFilters(o: LevelOptions): { before: string[]; after: string[] } {
  const before: string[] = [];
  let boostDb = 0;
  if (o.loudness.kind === 'dynamic') before.push(`loudnorm=I=${TARGET_LUFS}:TP=-1.5:LRA=11`);
  if (o.loudness.kind === 'gain') {
    const gain = Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, TARGET_LUFS - o.loudness.lufs));
    boostDb += gain;
    before.push(`volume=${gain.toFixed(2)}dB`);
  }
  const after: string[] = [];
  if (o.volume !== 100) {
    after.push(`volume=${(o.volume / 100).toFixed(2)}`);
    if (o.volume > 0) boostDb += 20 * Math.log10(o.volume / 100);
  }
  // A raised level must not clip: a limiter (no auto-levelling) just under full scale.
  if (boostDb > 0.5) after.push('alimiter=limit=0.95:level=0:attack=5:release=50');
  return { before, after };
}

/** The exact filter for each effect. */
export const EFFECT_FILTERS: Record<MusicEffect, string> = {
  nightcore: 'aresample=48000,asetrate=48000*1.25',
  slowed: 'aresample=48000,asetrate=48000*0.8',
  bassboost: 'bass=g=20:f=110:w=0.3',
  echo: 'aecho=0.8:0.9:1000:0.3',
  '8d': 'apulsator=hz=0.09',
};

/** How fast song time passes per second of audio sent: asetrate changes speed and pitch together. */
export const EFFECT_RATES: Partial<Record<MusicEffect, number>> = { nightcore: 1.25, slowed: 0.8 };

export function playbackRate(effects: readonly MusicEffect[]): number {
  return effects.reduce((rate, e) => rate * (EFFECT_RATES[e] ?? 1), 1);
}

/**
 * Each equalizer band as a peaking `equalizer` filter centred on the band's geometric middle, as wide
 * as the band (width type h = Hz). Flat bands add nothing.
 */
export function equalizerFilters(eq: EqSettings): string[] {
  return EQ_BANDS.filter((b) => eq[b.key] !== 0).map((b) => {
    const centre = Math.round(Math.sqrt(b.fromHz * b.toHz));
    return `equalizer=f=${centre}:t=h:w=${b.toHz - b.fromHz}:g=${eq[b.key]}`;
  });
}

/**
 * The whole filter graph: effects in a fixed order (whatever order the client listed them), then the
 * equalizer, then back to 48 kHz for Opus (asetrate relabels the rate).
 */
export function filterChain(
  effects: readonly MusicEffect[],
  eq: EqSettings,
  level: LevelOptions = FLAT_LEVEL,
): string {
  const on = MUSIC_EFFECTS.filter((e) => effects.includes(e));
  const { before, after } = levelFilters(level);
  // Normalise the source first (its loudness is what was measured), the listener's volume last.
  return [
    ...before,
    ...on.map((e) => EFFECT_FILTERS[e]),
    ...equalizerFilters(eq),
    ...after,
    'aresample=48000',
  ].join(',');
}

/** Where ffmpeg reads a track: a URL it opens itself (HTTP, HLS; library files through the loopback). */
export type TrackInput = {
  kind: 'url';
  url: string;
  headers?: Record<string, string>;
  /**
   * Until when (epoch ms) a restart of the same song (a seek, an effect, the equalizer, volume) may open
   * this URL again instead of asking the source for a new one: a YouTube player request is a round trip
   * to YouTube on the path of every change. Absent: asked again each time (SoundCloud's signed HLS URLs).
   */
  reusableUntil?: number;
};

export type TranscodeOptions = {
  ffmpegPath: string;
  processes: ProcessSpawner;
  input: TrackInput;
  startSeconds: number;
  effects: readonly MusicEffect[];
  eq: EqSettings;
  level?: LevelOptions;
};

export type Transcoder = {
  /** Opus packets (one 20 ms frame each), demuxed from ffmpeg's Ogg output. */
  packets: Readable;
  kill: () => void;
  /** ffmpeg's stderr (errors only), for the log when a track fails. */
  stderr: () => string;
  /** Resolves when ffmpeg has exited: `crashed` when it ended on an error or a signal we did not send. */
  exited: Promise<{ crashed: boolean; code: number | null; signal: string | null }>;
};

/** ffmpeg's arguments: seek, decode, filter, and encode Opus into small Ogg pages (20 ms) so a change is heard at once. */
export function ffmpegArgs(o: Omit<TranscodeOptions, 'ffmpegPath' | 'processes'>): string[] {
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
    ...encoderArgs(o.effects, o.eq, o.level),
    'pipe:1',
  ];
}

/**
 * Everything after the input: drop video, filter, and encode 48 kHz stereo Opus in 20 ms frames into
 * Ogg pages of one frame each, written at once (`-flush_packets`) so a new track's first audio reaches
 * the voice player without waiting for a fuller page. The output target follows.
 */
export function encoderArgs(
  effects: readonly MusicEffect[],
  eq: EqSettings,
  level: LevelOptions = FLAT_LEVEL,
): string[] {
  return [
    '-vn',
    '-af',
    filterChain(effects, eq, level),
    '-ac',
    '2',
    '-ar',
    '48000',
    '-c:a',
    'libopus',
    '-b:a',
    '128k',
    '-frame_duration',
    '20',
    '-application',
    'audio',
    '-page_duration',
    '20000',
    '-flush_packets',
    '1',
    '-f',
    'ogg',
  ];
}

/**
 * ffmpeg runs below the server's priority: it works seconds ahead of the voice player (its output waits in
 * the pipe), while the server must send every guild's packet on its 20 ms beat. When a new ffmpeg's start
 * (≈ 50 ms of CPU) meets a busy machine, the server keeps the beat and the start waits a little instead.
 */
const TRANSCODER_NICE = 10;

/** prism-media (the Ogg demuxer), loaded with the first track: it costs nothing at start-up (bench/startup). */
let prismModule: Promise<typeof import('prism-media')> | undefined;
const loadPrism = async () => {
  prismModule ??= import('prism-media');
  const m = await prismModule;
  // A CommonJS package: its exports object is the default export (the typings only name the parts).
  return (m as typeof m & { default?: typeof m }).default ?? m;
};

/**
 * Starts one ffmpeg for one track from one position with one set of filters, through the platform's
 * process spawner (a fork from the server would stall every guild's audio for milliseconds). Rejects when
 * ffmpeg cannot be started at all (a missing binary), so a play says so instead of "playing" a track that
 * never sounds.
 */
export async function startTranscoder(o: TranscodeOptions): Promise<Transcoder> {
  const prism = await loadPrism(); // before the spawn: nothing to clean up if it cannot load
  let child: SpawnedProcess;
  try {
    child = await o.processes.spawn(o.ffmpegPath, ffmpegArgs(o), { nice: TRANSCODER_NICE });
  } catch (e) {
    throw new Error(`ffmpeg could not be started: ${(e as Error).message}`);
  }
  let killed = false;
  let demuxError = '';
  const demuxer = new prism.opus.OggDemuxer();
  demuxer.on('error', (e: Error) => {
    demuxError = `ogg: ${e.message}`;
    demuxer.destroy();
  });
  const exited = child.exited.then(({ code, signal }) => ({
    crashed: !killed && (code !== 0 || signal !== null),
    code,
    signal,
  }));
  child.output.pipe(demuxer);
  return {
    packets: demuxer,
    kill: () => {
      killed = true;
      child.kill();
      demuxer.destroy();
    },
    stderr: () => child.text() + demuxError,
    exited,
  };
}
