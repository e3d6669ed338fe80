import type { Duplex, Readable } from 'node:stream';
import {
  type AudioPlayer,
  AudioPlayerStatus,
  type AudioResource,
  createAudioPlayer,
  createAudioResource,
  NoSubscriberBehavior,
  StreamType,
  type VoiceConnection,
} from '@discordjs/voice';
import {
  DEFAULT_MUSIC_OPTIONS,
  type EqSettings,
  FLAT_EQ,
  MUSIC_HISTORY_KEPT,
  type MusicEffect,
  type MusicLoopMode,
  type MusicServerOptions,
  type Song,
  type VoiceChannelInfo,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { ProcessSpawner } from '../../platform/process/index.ts';
import { type Loudness, playbackRate, startTranscoder, type TrackInput, type Transcoder } from './ffmpeg.ts';
import { type PacketSource, PacketSwitch } from './packet-switch.ts';
import { insertionIndex, songKey } from './queue-order.ts';

export type PlayerDeps = {
  ffmpegPath: string;
  processes: ProcessSpawner;
  log: FastifyBaseLogger;
  /** Where ffmpeg reads a song's audio (looked up each time a track starts: stream URLs expire). */
  inputFor: (song: Song) => Promise<TrackInput>;
  /** How a song's loudness is evened out now (off, measuring, or its measured loudness). */
  loudnessOf: (song: Song) => Loudness;
  /** Called after every change of this guild's playback. */
  changed: () => void;
  /** A song started playing (not a restart of it for a change, seek or resume): the history records it. */
  started?: (song: Song) => void;
  /**
   * The queue ended after `finished` with autoplay on (issue 48): a related song to play next, or null. It
   * must answer within its own short limit: the voice connection waits for it.
   */
  autoplay?: (finished: Song, queued: Song[]) => Promise<Song | null>;
};

/** The settings a guild keeps between sessions (volume, normalisation, loop, the queue options). */
export type PlayerSettings = {
  volume: number;
  normalize: boolean;
  loop: MusicLoopMode;
  options: MusicServerOptions;
};

/**
 * A guild's playback as stored (issue 42): what a restarted instance, or a new holder of the bot, needs to
 * carry on where the music was.
 */
export type StoredPlayback = {
  channel: VoiceChannelInfo | null;
  current: Song | null;
  queue: Song[];
  history: Song[];
  effects: MusicEffect[];
  eq: EqSettings;
  paused: boolean;
  /** Seconds into the current song. */
  position: number;
};

/** How long a new ffmpeg may take to deliver its first packet before the change counts as failed. */
const FIRST_PACKET_TIMEOUT_MS = 15_000;
/** An ffmpeg that dies mid-track is restarted at the position it reached, this many times per track. */
const CRASH_RESTARTS = 3;
/** Frames the voice player may find nothing to send (between two songs) before it would give up. */
const MAX_MISSED_FRAMES = 1500;

/** A running ffmpeg and what it plays: the song, from which input and position, at which speed. */
type Track = PacketSource & {
  transcoder: Transcoder;
  song: Song;
  input: TrackInput;
  startedAt: number;
  rate: number;
};

/**
 * One guild's playback: the queue, the song playing, recent history, effects, equalizer, volume,
 * normalisation and loop. Audio runs through one ffmpeg per track (decode, filter, Opus) into one
 * `PacketSwitch` the voice player reads for the whole session: a change starts a new ffmpeg at the
 * current position while the old one keeps playing, and the switch happens between two frames once the
 * new one has audio (gapless). Only a stop ends the stream, after five silence frames.
 *
 * Elapsed time = the position the current ffmpeg started at + the frames taken from it × 20 ms × the
 * effects' speed; the voice player takes no frames while paused, so it stays right through pause, seek
 * and speed-changing effects.
 */
export class GuildPlayer {
  queue: Song[] = [];
  current: Song | null = null;
  history: Song[] = [];
  effects: MusicEffect[] = [];
  eq: EqSettings = { ...FLAT_EQ };
  volume = 100;
  normalize = true;
  loop: MusicLoopMode = 'off';
  /** Fair queue and no duplicates (issue 48), kept per server. */
  options: MusicServerOptions = { ...DEFAULT_MUSIC_OPTIONS };
  channel: VoiceChannelInfo | null = null;
  /** Who voted to skip the current song (user id → name); cleared when the song changes. */
  readonly skipVotes = new Map<string, string>();
  private readonly audio: AudioPlayer;
  private out: PacketSwitch | null = null;
  private track: Track | null = null;
  /** The position a change in progress will start from (shown until its audio plays). */
  private pendingPosition: number | null = null;
  /** Bumped by every change, so a slower older start never replaces a newer one. */
  private generation = 0;
  private crashRestarts = 0;
  /** Why the last track could not start: ffmpeg itself (missing, not runnable) or the song's audio. */
  lastStartFailure: 'encoder' | 'audio' | null = null;
  private connection: VoiceConnection | null = null;
  /**
   * The listener's pause, kept here rather than read from the voice player: a pause that lands while the
   * first ffmpeg is starting, or while the voice link is down (auto-paused), must hold once audio flows.
   */
  private wantPaused = false;
  /** The queue entry last told to `started`: a restart of the same entry is not a new play. */
  private recorded: string | null = null;
  /**
   * Autoplay's pick after the song playing, asked as it started with nothing queued after it (issue 48): at
   * its end only the next ffmpeg's start stands between the two songs, not the search for a related one.
   */
  private upcoming: { entryId: string; pick: Promise<Song | null> } | null = null;

  private readonly deps: PlayerDeps;

  constructor(deps: PlayerDeps, settings?: PlayerSettings) {
    this.deps = deps;
    if (settings) {
      this.volume = settings.volume;
      this.normalize = settings.normalize;
      this.loop = settings.loop;
      this.options = { ...settings.options };
    }
    // Pause without a ready connection (the voice link is down): the song waits instead of running on unheard.
    this.audio = createAudioPlayer({
      behaviors: { noSubscriber: NoSubscriberBehavior.Pause, maxMissedFrames: MAX_MISSED_FRAMES },
    });
    this.audio.on('error', (err) => deps.log.warn({ err: err.message }, 'music: voice player error'));
    this.audio.on('stateChange', (_before, after) => {
      if (after.status === AudioPlayerStatus.Playing && this.wantPaused) this.audio.pause(true);
    });
  }

  get isPaused(): boolean {
    return this.current !== null && this.wantPaused;
  }

  get isPlaying(): boolean {
    return this.current !== null && !this.isPaused;
  }

  settings(): PlayerSettings {
    return { volume: this.volume, normalize: this.normalize, loop: this.loop, options: { ...this.options } };
  }

  /** Song seconds played, clamped to the song's length when that is known. */
  elapsed(): number {
    if (!this.current) return 0;
    if (this.pendingPosition !== null) return this.pendingPosition;
    const t = this.track;
    const played = t && t.song === this.current ? t.startedAt + t.frames * 0.02 * t.rate : 0;
    return this.current.duration > 0 ? Math.min(played, this.current.duration) : played;
  }

  playbackRate(): number {
    return playbackRate(this.effects);
  }

  /** The playback as stored: enough to resume it elsewhere. */
  snapshot(): StoredPlayback {
    return {
      channel: this.channel,
      current: this.current,
      queue: [...this.queue],
      history: [...this.history],
      effects: [...this.effects],
      eq: { ...this.eq },
      paused: this.isPaused,
      position: Math.round(this.elapsed() * 1000) / 1000,
    };
  }

  /** Takes over a stored queue, history, effects and equalizer (the song itself starts with `resumeAt`). */
  loadStored(s: StoredPlayback): void {
    this.queue = [...s.queue];
    this.history = [...s.history];
    this.effects = [...s.effects];
    this.eq = { ...s.eq };
  }

  /** Plays a stored song from its stored position (paused again if it was). */
  async resumeAt(song: Song, position: number, paused: boolean): Promise<void> {
    this.setCurrent(song);
    this.recorded = song.entryId; // it was recorded when it first started
    this.wantPaused = paused;
    await this.startTrack(Math.max(0, position));
  }

  attach(connection: VoiceConnection, channel: VoiceChannelInfo): void {
    if (this.connection !== connection) connection.subscribe(this.audio);
    this.connection = connection;
    this.channel = channel;
  }

  isAttachedTo(connection: VoiceConnection): boolean {
    return this.connection === connection;
  }

  detach(): void {
    this.connection = null;
    this.channel = null;
  }

  /** Plays now when nothing is playing, else queues. Returns what happened. */
  async add(song: Song): Promise<'playing' | 'queued'> {
    if (this.current) {
      this.enqueue(song);
      this.deps.changed();
      return 'queued';
    }
    this.setCurrent(song);
    this.wantPaused = false;
    await this.startTrack(0);
    return 'playing';
  }

  addAll(songs: Song[]): void {
    for (const song of songs) this.enqueue(song);
  }

  /** Whether the song (the same platform and id) is playing or queued: the no-duplicates rule. */
  holds(song: Pick<Song, 'platform' | 'id'>): boolean {
    const key = songKey(song);
    return (
      (this.current !== null && songKey(this.current) === key) || this.queue.some((s) => songKey(s) === key)
    );
  }

  setOptions(options: MusicServerOptions): void {
    this.options = { ...options };
    this.deps.changed();
  }

  /** Queues a member's song where the queue rules put it (first come, or round-robin by requester). */
  private enqueue(song: Song): void {
    this.queue.splice(insertionIndex(this.queue, this.current, song, this.options.fairQueue), 0, song);
  }

  pause(): void {
    this.wantPaused = true;
    // The voice player pauses only while playing (five silence frames); a track still starting is
    // paused when it plays (the stateChange listener).
    this.audio.pause(true);
    this.deps.changed();
  }

  resume(): void {
    this.wantPaused = false;
    this.audio.unpause();
    this.deps.changed();
  }

  async seek(seconds: number): Promise<void> {
    const song = this.current;
    const max = song && song.duration > 0 ? song.duration : Number.POSITIVE_INFINITY;
    const position = Math.min(Math.max(0, seconds), max);
    if (song && atSongEnd(song, position)) {
      // To the very end: the song is over now (an ffmpeg started there has nothing to decode, and over
      // HTTP it can take seconds to say so).
      await this.next({ skipped: false });
      return;
    }
    await this.restartAt(position);
  }

  async setEffects(effects: MusicEffect[]): Promise<void> {
    this.effects = effects;
    await this.restartAt(this.elapsed());
  }

  async setEq(eq: EqSettings): Promise<void> {
    this.eq = eq;
    await this.restartAt(this.elapsed());
  }

  /** Volume 0–200 %, heard at once (a gapless restart at the current position). */
  async setVolume(volume: number): Promise<void> {
    this.volume = volume;
    await this.restartAt(this.elapsed());
  }

  async setNormalize(on: boolean): Promise<void> {
    this.normalize = on;
    await this.restartAt(this.elapsed());
  }

  /** Loop off, the song playing, or the whole queue (a finished song goes back to its end). */
  setLoop(mode: MusicLoopMode): void {
    this.loop = mode;
    this.deps.changed();
  }

  async skip(): Promise<void> {
    await this.next({ skipped: true });
  }

  /** Stops the song playing (into history); the queue stays. Five silence frames end the transmission. */
  stop(): void {
    this.generation++;
    this.toHistory();
    this.setCurrent(null);
    this.pendingPosition = null;
    this.endOutput();
    this.deps.changed();
  }

  clearQueue(): void {
    this.queue = [];
    this.deps.changed();
  }

  reorder(from: number, to: number): void {
    const [song] = this.queue.splice(from, 1);
    if (song) this.queue.splice(to, 0, song);
    this.deps.changed();
  }

  /** Index of a queue entry, or −1. */
  indexOf(entryId: string): number {
    return this.queue.findIndex((s) => s.entryId === entryId);
  }

  remove(index: number): Song | null {
    const [song] = this.queue.splice(index, 1);
    this.deps.changed();
    return song ?? null;
  }

  /** Fisher–Yates over the queue (the song playing stays). */
  shuffle(): void {
    const q = this.queue;
    for (let i = q.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [q[i], q[j]] = [q[j] as Song, q[i] as Song];
    }
    this.deps.changed();
  }

  destroy(): void {
    this.generation++;
    this.track?.transcoder.kill();
    this.track = null;
    this.out?.finish();
    this.out = null;
    this.audio.stop(true);
  }

  private setCurrent(song: Song | null): void {
    if (this.current?.entryId !== song?.entryId) this.skipVotes.clear();
    this.current = song;
    this.crashRestarts = 0;
  }

  private async restartAt(position: number): Promise<void> {
    if (!this.current) {
      this.deps.changed();
      return;
    }
    await this.startTrack(position);
  }

  /** The song ended, was skipped, or could not start: loop it, or go on to the next one (or stop). */
  private async next(o: { skipped: boolean; failed?: boolean }): Promise<void> {
    const finished = this.current;
    if (finished && this.loop === 'track' && !o.skipped) {
      await this.startTrack(0);
      return;
    }
    this.generation++;
    // A song that could not start is neither history nor looped (with every song failing, the queue drains).
    if (!o.failed) this.toHistory();
    if (finished && this.loop === 'queue' && !o.failed) this.queue.push(finished);
    this.pendingPosition = null;
    let next = this.queue.shift() ?? null;
    if (!next && finished && !o.failed && this.options.autoplay && this.deps.autoplay) {
      const generation = this.generation;
      const early = this.upcoming?.entryId === finished.entryId ? await this.upcoming.pick : null;
      this.upcoming = null;
      const picked = early ?? (await this.deps.autoplay(finished, this.queue).catch(() => null));
      // A stop, play or skip while it looked decides instead; a member's request queued meanwhile goes first.
      if (generation !== this.generation) return;
      next = this.queue.shift() ?? picked;
    }
    this.setCurrent(next);
    this.wantPaused = false; // the next song plays
    if (next) {
      // Gapless: the song before keeps playing until the next one has audio.
      await this.startTrack(0);
      return;
    }
    this.endOutput();
    this.deps.changed();
  }

  private toHistory(): void {
    if (this.current) this.history = [this.current, ...this.history].slice(0, MUSIC_HISTORY_KEPT);
  }

  private endOutput(): void {
    this.track?.transcoder.kill();
    this.track = null;
    this.out?.finish();
    this.out = null;
  }

  /**
   * Starts an ffmpeg for the current song at `position`, waits for its first packet, then switches to it
   * (or starts the output). A song that cannot start is skipped; a change that cannot start leaves the
   * song playing as it was.
   */
  private async startTrack(position: number, reuseInput = true): Promise<void> {
    const song = this.current;
    if (!song) return;
    const generation = ++this.generation;
    this.pendingPosition = position;
    this.deps.changed();
    let transcoder: Transcoder | undefined;
    let input: TrackInput | undefined;
    try {
      input = (reuseInput ? this.reusableInput(song) : null) ?? (await this.deps.inputFor(song));
      transcoder = await startTranscoder({
        ffmpegPath: this.deps.ffmpegPath,
        processes: this.deps.processes,
        input,
        startSeconds: position,
        effects: this.effects,
        eq: this.eq,
        level: {
          volume: this.volume,
          loudness: this.normalize ? this.deps.loudnessOf(song) : { kind: 'off' },
        },
      });
      await firstPacket(transcoder);
    } catch (err) {
      this.deps.log.warn(
        { err: (err as Error).message, ffmpeg: transcoder?.stderr().trim(), song: song.url },
        'music: cannot start track',
      );
      transcoder?.kill();
      this.lastStartFailure = transcoder
        ? 'audio'
        : (err as Error).message.startsWith('ffmpeg could not be started')
          ? 'encoder'
          : 'audio';
      if (generation !== this.generation) return;
      this.pendingPosition = null;
      const atEnd = atSongEnd(song, position);
      if (this.track?.song === song && !atEnd) {
        // A change on a playing song failed: the song goes on as it was.
        this.deps.changed();
        return;
      }
      if (atEnd) {
        // A seek to the very end (nothing left to decode): the song is over.
        await this.next({ skipped: false });
        return;
      }
      await this.next({ skipped: true, failed: true });
      return;
    }
    if (generation !== this.generation) {
      transcoder.kill(); // replaced while ffmpeg was starting
      return;
    }
    const track: Track = {
      packets: transcoder.packets,
      frames: dropEncoderPriming(transcoder.packets),
      transcoder,
      song,
      input,
      startedAt: position,
      rate: playbackRate(this.effects),
    };
    const old = this.track;
    this.track = track;
    this.pendingPosition = null;
    this.lastStartFailure = null;
    if (this.recorded !== song.entryId) {
      this.recorded = song.entryId;
      this.deps.started?.(song);
      this.upcoming =
        this.queue.length === 0 && this.options.autoplay && this.deps.autoplay
          ? { entryId: song.entryId, pick: this.deps.autoplay(song, []).catch(() => null) }
          : null;
    }
    const retire = () => transcoder.kill();
    if (this.out && !this.out.isFinishing) {
      // The old ffmpeg is ended by the switch, once the new one is playing.
      await this.out.switchTo(track, retire);
    } else {
      const out = new PacketSwitch();
      out.onSourceEnd = (ended) => void this.sourceEnded(ended as Track);
      // One silence frame of padding: with our own five before the end, exactly five reach Discord.
      const resource: AudioResource = createAudioResource(out, {
        inputType: StreamType.Opus,
        silencePaddingFrames: 1,
      });
      // After the resource exists: its 'readable' marks the resource started (the first switch is at once).
      void out.switchTo(track, retire);
      this.out = out;
      this.audio.play(resource);
      if (this.wantPaused) this.audio.pause(true);
      old?.transcoder.kill(); // a track left from an output that was finishing
    }
    this.deps.changed();
  }

  /**
   * The input the song playing was started from, when a restart of it may open it again (the source said
   * until when): a change then starts ffmpeg at once instead of first asking the platform for a stream URL.
   */
  private reusableInput(song: Song): TrackInput | null {
    const t = this.track;
    if (!t || t.song !== song || t.input.kind !== 'url') return null;
    return (t.input.reusableUntil ?? 0) > Date.now() ? t.input : null;
  }

  /** The current ffmpeg ran out: the song's end, or a crash (restarted where it was). */
  private async sourceEnded(track: Track): Promise<void> {
    if (track !== this.track) return;
    const exit = await track.transcoder.exited;
    if (track !== this.track) return;
    const position = this.elapsed();
    const song = this.current;
    const nearEnd = song && song.duration > 0 && position >= song.duration - 1;
    if (exit.crashed && song && !nearEnd && this.crashRestarts < CRASH_RESTARTS) {
      this.crashRestarts++;
      this.deps.log.warn(
        { code: exit.code, signal: exit.signal, ffmpeg: track.transcoder.stderr().trim(), position },
        'music: ffmpeg stopped mid-track; restarting where it was',
      );
      // A fresh stream URL: the old one may be why ffmpeg stopped (expired, refused).
      await this.startTrack(position, false);
      return;
    }
    if (exit.crashed) {
      this.deps.log.warn(
        { code: exit.code, signal: exit.signal, ffmpeg: track.transcoder.stderr().trim() },
        'music: ffmpeg failed',
      );
    }
    await this.next({ skipped: false });
  }
}

/** Nothing left of the song to decode from `position` (its duration known). */
function atSongEnd(song: Song, position: number): boolean {
  return song.duration > 0 && position >= song.duration - 0.5;
}

/**
 * A new encoder's first packet is its priming: decoded, it is a few milliseconds of silence and a quiet
 * ramp (about 9 dB below the music), a dip a listener hears as a click at every seek or effect change, and
 * a frame in which the change is not heard yet. It is dropped (when more follow); the 20 ms it held are
 * counted as played, so the elapsed time stays exact. Returns the frames consumed.
 */
function dropEncoderPriming(packets: Readable): number {
  if (packets.readableLength < 2) return 0;
  return packets.read() ? 1 : 0;
}

/**
 * Packets a new ffmpeg must have ready before the switch: four frames (its priming packet, dropped, and
 * 60 ms of audio, which a starting ffmpeg delivers together) so a loaded machine's slower next packet cannot
 * leave the player a frame with nothing to send right after the switch.
 */
const READY_PACKETS = 4;

/** Resolves once the demuxer holds its first packets (or all there are); rejects when it ends with none. */
function firstPacket(t: Transcoder): Promise<void> {
  const packets = t.packets;
  if (packets.readableLength >= READY_PACKETS) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      packets.off('readable', onReadable);
      packets.off('finish', onReadable);
      packets.off('end', onEnd);
      packets.off('close', onEnd);
      if (err) reject(err);
      else resolve();
    };
    // The demuxer's writable side finishing means ffmpeg's output is all in: a short remainder is enough.
    const inputDone = () => (packets as Partial<Duplex>).writableFinished === true;
    const onReadable = () => {
      if (packets.readableLength >= READY_PACKETS || (inputDone() && packets.readableLength > 0)) done();
    };
    const onEnd = () =>
      packets.readableLength > 0
        ? done()
        : done(new Error(`ffmpeg delivered no audio: ${t.stderr().trim() || 'no output'}`));
    const timer = setTimeout(() => {
      if (packets.readableLength > 0) done();
      else done(new Error('ffmpeg delivered no audio in time'));
    }, FIRST_PACKET_TIMEOUT_MS);
    packets.on('readable', onReadable);
    packets.on('finish', onReadable);
    packets.once('end', onEnd);
    packets.once('close', onEnd);
  });
}
