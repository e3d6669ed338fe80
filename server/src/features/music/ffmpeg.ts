import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { EQ_BANDS, type EqSettings, MUSIC_EFFECTS, type MusicEffect } from '@guildhall/common';
import type { ProcessSpawner, SpawnedProcess } from '../../platform/process/index.ts';
import { FilterCommands } from './filter-commands.ts';
import { runMediaJob } from './media-jobs.ts';

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

/** The issue's exact filter for each effect. */
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

// ---- The live chain (issue 48): effects, equalizer and volume changed in the running ffmpeg ----

/**
 * Effects that change the speed (asetrate relabels the rate, so the decoder must run faster or slower):
 * no filter of Debian's ffmpeg 5.1 changes that while it runs (rubberband's pitch/tempo would, at several
 * times the CPU and with its own sound), so these two still start a new ffmpeg at the position.
 */
export const RATE_EFFECTS: readonly MusicEffect[] = ['nightcore', 'slowed'];

/** What the running ffmpeg changes on command: the other effects, each band, the volume, the limiter. */
export type LiveSound = {
  effects: { bassboost: boolean; echo: boolean; '8d': boolean };
  eq: EqSettings;
  volume: number;
  limiter: boolean;
};

/** The live sound for these settings (the rate effects and the loudness mode are fixed per ffmpeg). */
export function liveSound(effects: readonly MusicEffect[], eq: EqSettings, level: LevelOptions): LiveSound {
  const gainDb =
    level.loudness.kind === 'gain'
      ? Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, TARGET_LUFS - level.loudness.lufs))
      : 0;
  const volumeDb = level.volume > 0 ? 20 * Math.log10(level.volume / 100) : 0;
  return {
    effects: {
      bassboost: effects.includes('bassboost'),
      echo: effects.includes('echo'),
      '8d': effects.includes('8d'),
    },
    eq: { ...eq },
    volume: level.volume,
    // As the static chain: a raised level must not clip.
    limiter: gainDb + volumeDb > 0.5,
  };
}

/** The rate effects of a set of effects, as a key: a change of it needs a new ffmpeg. */
export function rateKey(effects: readonly MusicEffect[]): string {
  return RATE_EFFECTS.filter((e) => effects.includes(e)).join('+');
}

/**
 * Audio the paced ffmpeg delivers at once when it starts, before it keeps to real time: the encoder's
 * priming packet (dropped) and three frames, so the switch can take it at the player's next read whatever
 * the phase with its margin (a frame more than the margin needs is skipped there: see PacketSwitch). The
 * n-th packet needs the encoder's n-th 20 ms input frame whole, so 20 ms per packet (at 50 ms the third came
 * a paced 10–20 ms later at every start).
 */
export const LIVE_BURST_MS = 80;
/**
 * Samples per filter frame after the pacing (10 ms): `azmq` takes commands and `arealtime` sleeps once per
 * frame, so a command waits at most this long for the filters. 5 ms frames cost a further 1 % of a core per
 * stream for ffmpeg; 20 ms frames would add 10 ms to every change.
 */
const LIVE_FRAME_SAMPLES = 480;

const instance = {
  bassboost: 'bass@fx_bassboost',
  echo: 'amix@fx_echo',
  '8d': 'amix@fx_8d',
  volume: 'volume@fx_volume',
  limiter: 'alimiter@fx_limiter',
  band: (key: string) => `equalizer@eq_${key}`,
};

/** A value inside a filter option: `\` and `:` escaped for the option parser and again for the graph's. */
function optionValue(s: string): string {
  return s.replace(/[\\:']/g, (c) => `\\\\\\${c}`);
}

/**
 * The live filter graph. The fixed part first (normalisation, the rate effects, 48 kHz in 10 ms frames);
 * then `arealtime` paces the rest to real time after a LIVE_BURST_MS head start (the `asetpts` pair around it
 * moves the timestamps it sees back by the burst, then restores them), so ffmpeg is never more than that
 * ahead of the listener and a command changes audio that is about to be sent, not audio seconds ahead of it;
 * `azmq` right after it takes commands on `socket`. Every live filter is always there: bass boost and the
 * limiter switched by the generic `enable` command, echo and 8d as a dry/wet `amix` whose weights switch
 * (aecho and apulsator have no timeline), each band a peaking `equalizer` whose gain `g` changes (0: flat),
 * and `volume`'s `volume`.
 */
export function liveFilterChain(
  effects: readonly MusicEffect[],
  eq: EqSettings,
  level: LevelOptions,
  socket: string,
  burstMs = LIVE_BURST_MS,
): string {
  const { before } = levelFilters({ ...level, volume: 100 });
  const sound = liveSound(effects, eq, level);
  const rate = RATE_EFFECTS.filter((e) => effects.includes(e)).map((e) => EFFECT_FILTERS[e]);
  const mix = (on: boolean) => `weights=${on ? '0 1' : '1 0'}`;
  const bands = EQ_BANDS.map((b) => {
    const centre = Math.round(Math.sqrt(b.fromHz * b.toHz));
    return `${instance.band(b.key)}=f=${centre}:t=h:w=${b.toHz - b.fromHz}:g=${eq[b.key]}`;
  });
  const burst = (burstMs / 1000).toFixed(3);
  return [
    ...before,
    ...rate,
    'aresample=48000',
    `asetnsamples=n=${LIVE_FRAME_SAMPLES}:p=0`,
    `asetpts=max(0\\,N/SR-${burst})/TB`,
    'arealtime=limit=5',
    'asetpts=N/SR/TB',
    `azmq=bind_address=${optionValue(`ipc://${socket}`)}`,
    `${instance.bassboost}=g=20:f=110:w=0.3:enable=${sound.effects.bassboost ? 1 : 0}`,
    `asplit=2[dry_e][wet_e];[wet_e]aecho=0.8:0.9:1000:0.3[echo];[dry_e][echo]${instance.echo}=inputs=2:duration=first:normalize=0:${mix(sound.effects.echo)}`,
    `asplit=2[dry_p][wet_p];[wet_p]apulsator=hz=0.09[pulse];[dry_p][pulse]${instance['8d']}=inputs=2:duration=first:normalize=0:${mix(sound.effects['8d'])}`,
    ...bands,
    `${instance.volume}=volume=${(level.volume / 100).toFixed(2)}`,
    `${instance.limiter}=limit=0.95:level=0:attack=5:release=50:enable=${sound.limiter ? 1 : 0}`,
    'aresample=48000',
  ].join(',');
}

/** The commands that take a running live chain from one sound to another (none when they are the same). */
export function liveCommands(from: LiveSound, to: LiveSound): string[] {
  const out: string[] = [];
  for (const e of ['bassboost', 'echo', '8d'] as const) {
    if (from.effects[e] === to.effects[e]) continue;
    out.push(
      e === 'bassboost'
        ? `${instance.bassboost} enable ${to.effects[e] ? 1 : 0}`
        : `${instance[e]} weights '${to.effects[e] ? '0 1' : '1 0'}'`,
    );
  }
  for (const b of EQ_BANDS) {
    if (from.eq[b.key] !== to.eq[b.key]) out.push(`${instance.band(b.key)} g ${to.eq[b.key]}`);
  }
  if (from.volume !== to.volume) out.push(`${instance.volume} volume ${(to.volume / 100).toFixed(2)}`);
  if (from.limiter !== to.limiter) out.push(`${instance.limiter} enable ${to.limiter ? 1 : 0}`);
  return out;
}

/** The filters the live chain needs beyond the static one's (the container's ffmpeg is built with them). */
const LIVE_FILTER_NAMES = ['azmq', 'arealtime', 'asetnsamples', 'asetpts', 'amix', 'asplit', 'alimiter'];
const liveProbe = new Map<string, Promise<boolean>>();

/**
 * Whether this ffmpeg has the live chain's filters (`ffmpeg -filters`, once per path, as a media job):
 * an ffmpeg built without ZeroMQ has no `azmq`, and then every change starts a new ffmpeg as before.
 */
export function liveFiltersAvailable(processes: ProcessSpawner, ffmpegPath: string): Promise<boolean> {
  let p = liveProbe.get(ffmpegPath);
  if (!p) {
    p = runMediaJob(processes, ffmpegPath, ['-hide_banner', '-filters'], {
      timeoutMs: 10_000,
      read: 'stdout',
    }).then(({ output, code }) => {
      if (code !== 0) {
        liveProbe.delete(ffmpegPath); // not runnable now: asked again with the next track
        return false;
      }
      const names = new Set(output.split('\n').map((line) => line.trim().split(/\s+/)[1]));
      return LIVE_FILTER_NAMES.every((n) => names.has(n));
    });
    liveProbe.set(ffmpegPath, p);
  }
  return p;
}

/** Where the live chains' command sockets are: a directory only this user can open, made on first use. */
let socketDir: string | null = null;
let socketCount = 0;
function newSocketPath(): string {
  socketDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-ffmpeg-'));
  socketCount++;
  return path.join(socketDir, `${process.pid}-${socketCount}.sock`);
}

/**
 * ffmpeg processes started for tracks in this process, and how many of them replaced one that ran too far
 * ahead of the listener (tests prove a live change starts none).
 */
const transcoderStarts = { all: 0, catchUp: 0 };
export function transcodersStarted(): { all: number; catchUp: number } {
  return { ...transcoderStarts };
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
  /**
   * The live chain, its filters changed by commands on `socket`, paced to real time after `burstMs` of
   * audio; absent: the static chain.
   */
  live?: { socket: string; burstMs: number };
  /** Started because the playing one ran too far ahead of the listener (counted apart, for the tests). */
  catchUp?: boolean;
};

export type Transcoder = {
  /** Opus packets (one 20 ms frame each), demuxed from ffmpeg's Ogg output. */
  packets: Readable;
  kill: () => void;
  /** ffmpeg's stderr (errors only), for the log when a track fails. */
  stderr: () => string;
  /** Resolves when ffmpeg has exited: `crashed` when it ended on an error or a signal we did not send. */
  exited: Promise<{ crashed: boolean; code: number | null; signal: string | null }>;
  /**
   * The live chain only: sends filter commands (`liveCommands`) to the running ffmpeg; resolves once it has
   * applied them all (they act on its next 10 ms frame), rejects if it could not. Null: the static chain.
   */
  command: ((commands: string[]) => Promise<void>) | null;
  /** performance.now() when ffmpeg's output last came in (paced, the live chain writes a page per 20 ms). */
  lastOutputAt: () => number;
};

/** ffmpeg's arguments: seek, decode, filter, and encode Opus into small Ogg pages (20 ms) so a change is heard at once. */
export function ffmpegArgs(o: Omit<TranscodeOptions, 'ffmpegPath' | 'processes' | 'catchUp'>): string[] {
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
    ...(o.live
      ? liveEncoderArgs(o.effects, o.eq, o.level ?? FLAT_LEVEL, o.live.socket, o.live.burstMs)
      : encoderArgs(o.effects, o.eq, o.level)),
    'pipe:1',
  ];
}

/** As `encoderArgs`, with the live chain (paced to real time, filters changed by commands on `socket`). */
export function liveEncoderArgs(
  effects: readonly MusicEffect[],
  eq: EqSettings,
  level: LevelOptions,
  socket: string,
  burstMs = LIVE_BURST_MS,
): string[] {
  return outputArgs(liveFilterChain(effects, eq, level, socket, burstMs));
}

/**
 * Everything after the input with the static chain (every setting fixed for the process's life: what an
 * ffmpeg without the live chain's filters runs, and the bench's bare-ffmpeg baseline): drop video, filter,
 * and encode 48 kHz stereo Opus in 20 ms frames into Ogg pages of one frame each, written at once
 * (`-flush_packets`) so a new track's first audio reaches the voice player without waiting for a fuller
 * page. The output target follows.
 */
export function encoderArgs(
  effects: readonly MusicEffect[],
  eq: EqSettings,
  level: LevelOptions = FLAT_LEVEL,
): string[] {
  return outputArgs(filterChain(effects, eq, level));
}

function outputArgs(filters: string): string[] {
  return [
    '-vn',
    '-af',
    filters,
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
/**
 * The live chain's ffmpeg keeps only its head start ahead of the listener, so it must run when its frame is
 * due rather than when the machine is idle: the server's priority. (Paced, it uses the CPU in 10 ms slices.)
 */
const LIVE_NICE = 10;

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
    transcoderStarts.all++;
    if (o.catchUp) transcoderStarts.catchUp++;
    child = await o.processes.spawn(o.ffmpegPath, ffmpegArgs(o), {
      nice: o.live ? LIVE_NICE : TRANSCODER_NICE,
    });
  } catch (e) {
    throw new Error(`ffmpeg could not be started: ${(e as Error).message}`);
  }
  const socket = o.live?.socket;
  const commands = socket ? new FilterCommands(socket) : null;
  let killed = false;
  let demuxError = '';
  const demuxer = new prism.opus.OggDemuxer();
  demuxer.on('error', (e: Error) => {
    demuxError = `ogg: ${e.message}`;
    demuxer.destroy();
  });
  const exited = child.exited.then(({ code, signal }) => {
    commands?.close();
    // ffmpeg removes its socket when it ends normally, not when it is killed.
    if (socket) fs.rm(socket, { force: true }, () => {});
    return { crashed: !killed && (code !== 0 || signal !== null), code, signal };
  });
  let lastOutputAt = Number.NEGATIVE_INFINITY;
  child.output.on('data', () => {
    lastOutputAt = performance.now();
  });
  child.output.pipe(demuxer);
  return {
    lastOutputAt: () => lastOutputAt,
    packets: demuxer,
    kill: () => {
      killed = true;
      child.kill();
      demuxer.destroy();
      commands?.close();
    },
    stderr: () => child.text() + demuxError,
    exited,
    command: commands
      ? async (list) => {
          for (const c of list) {
            const reply = await commands.send(c);
            if (!reply.startsWith('0 ')) throw new Error(`ffmpeg refused "${c}": ${reply}`);
          }
        }
      : null,
  };
}

/** A fresh command socket path for a live chain. */
export function liveSocketPath(): string {
  return newSocketPath();
}
