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
import { SAMPLE_RATE } from './dsp/biquad.ts';
import { FRAME, type LiveSettings, MAX_RATE, playbackRate, SOURCE_RAMP_FRAMES } from './dsp/chain.ts';
import {
  type Decoder,
  type Loudness,
  loudnessGainDb,
  startDecoder,
  type TrackInput,
  warmScript,
} from './ffmpeg.ts';
import { createEncoder, loadEncoder } from './opus-encoder.ts';
import { PacketSwitch, type PcmSource } from './packet-switch.ts';
import { insertionIndex, songKey } from './queue-order.ts';
import type { WarmDecoders } from './warm-decoders.ts';

export type PlayerDeps = {
  ffmpegPath: string;
  processes: ProcessSpawner;
  /**
   * ffmpegs started ahead (one kept per guild in a voice channel): a seek, a song without a prepared spare
   * or a crash restart gives one its input instead of starting a process on the change's path.
   */
  warm?: WarmDecoders;
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

/** How long a new ffmpeg may take to deliver its first audio before the change counts as failed. */
const FIRST_PACKET_TIMEOUT_MS = 15_000;
/** An ffmpeg that dies mid-track is restarted at the position it reached, this many times per track. */
const CRASH_RESTARTS = 3;
/** How long after a change of track or queue the next song's ffmpeg is started. */
const SPARE_DELAY_MS = 250;
/** A finished output is destroyed after this long whether or not the voice player read its end. */
const OUTPUT_END_MS = 1000;
/** Frames the voice player may find nothing to send (between two songs) before it would give up. */
const MAX_MISSED_FRAMES = 1500;

/** The next song's ffmpeg started ahead, at 0 s. */
type Spare = { entryId: string; decoder: Decoder; input: TrackInput };

/** A running ffmpeg and what it plays: the song, from which input and position. */
type Track = PcmSource & {
  decoder: Decoder;
  song: Song;
  input: TrackInput;
  startedAt: number;
};

/**
 * One guild's playback: the queue, the song playing, recent history, effects, equalizer, volume,
 * normalisation and loop. Audio runs through one ffmpeg per track (decode to 48 kHz floats) into one
 * `PacketSwitch` the voice player reads for the whole session, which runs each 20 ms through the live
 * chain (loudness gain, speed, effects, equalizer, volume) and one Opus encoder. Effects, equalizer and
 * volume change the chain's settings, heard at the next frame, and normalisation its loudness gain, ramped
 * over a second, with no new process (issue 48). A seek, the next song or a crash start a new ffmpeg at the position while the old one keeps playing, and the
 * switch happens between two frames once the new one has audio (gapless). Only a stop ends the stream,
 * after five silence frames.
 *
 * Elapsed time = the position the current ffmpeg started at + the decoded frames the chain consumed from
 * it ÷ 48 kHz: exact through pause (nothing is consumed), seek and the speed effects (which consume faster
 * or slower).
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
  /**
   * The next queued song's ffmpeg, started ahead (issue 48: "a warm spare process per playing guild"): a skip,
   * or the song's end, switches to audio already decoded instead of waiting for an ffmpeg to start.
   */
  private spare: Spare | null = null;
  /** Bumped when the spare is dropped, so a spare still starting is not kept. */
  private spareGeneration = 0;
  private spareScheduled = false;
  /** The spare being started (its ffmpeg spawned, not yet ready to take). */
  private spareStarting: { entryId: string; done: Promise<void> } | null = null;
  private destroyed = false;

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
    const played = t && t.song === this.current ? t.startedAt + t.consumed / SAMPLE_RATE : 0;
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
    this.deps.warm?.hold(this);
  }

  isAttachedTo(connection: VoiceConnection): boolean {
    return this.connection === connection;
  }

  detach(): void {
    this.connection = null;
    this.channel = null;
    this.deps.warm?.release(this);
  }

  /** Plays now when nothing is playing, else queues. Returns what happened. */
  async add(song: Song): Promise<'playing' | 'queued'> {
    if (this.current) {
      this.enqueue(song);
      this.refreshSpare();
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
    this.refreshSpare();
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
    this.refreshSpare();
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

  /** Effects, heard from the next frame on (the live chain's settings: no new ffmpeg). */
  async setEffects(effects: MusicEffect[]): Promise<void> {
    this.effects = effects;
    this.applyLive();
  }

  async setEq(eq: EqSettings): Promise<void> {
    this.eq = eq;
    this.applyLive();
  }

  /** Volume 0–200 %, heard from the next frame on. */
  async setVolume(volume: number): Promise<void> {
    this.volume = volume;
    this.applyLive();
  }

  private liveSettings(): LiveSettings {
    return { effects: this.effects, eq: this.eq, volume: this.volume };
  }

  private applyLive(): void {
    this.out?.chain.set(this.liveSettings());
    this.deps.changed();
  }

  /** Normalisation on or off: the song's loudness gain moves there over a second, no new ffmpeg. */
  async setNormalize(on: boolean): Promise<void> {
    this.normalize = on;
    this.applyLoudness();
    this.deps.changed();
  }

  /**
   * A song's loudness was measured: the song playing, if it was that one, moves to its gain over a second
   * (it started at 0 dB, never measured before), live. A later ffmpeg of it (a seek) starts at the gain.
   */
  loudnessMeasured(): void {
    this.applyLoudness();
  }

  private applyLoudness(): void {
    const track = this.track;
    if (!track) return;
    const db = this.gainFor(track.song);
    if (db === track.gainDb) return;
    track.gainDb = db;
    // Ramped when that song is what is heard (also while its new ffmpeg, a seek, waits to take over: the
    // switch then keeps the ramp); a next song not heard yet takes its gain at once at the switch.
    const heard = this.out?.current as Track | null | undefined;
    if (heard?.song === track.song) this.out?.chain.setSourceGain(db, SOURCE_RAMP_FRAMES);
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
    this.dropSpare();
    this.generation++;
    this.toHistory();
    this.setCurrent(null);
    this.pendingPosition = null;
    this.endOutput();
    this.deps.changed();
  }

  clearQueue(): void {
    this.queue = [];
    this.refreshSpare();
    this.deps.changed();
  }

  reorder(from: number, to: number): void {
    const [song] = this.queue.splice(from, 1);
    if (song) this.queue.splice(to, 0, song);
    this.refreshSpare();
    this.deps.changed();
  }

  /** Index of a queue entry, or −1. */
  indexOf(entryId: string): number {
    return this.queue.findIndex((s) => s.entryId === entryId);
  }

  remove(index: number): Song | null {
    const [song] = this.queue.splice(index, 1);
    this.refreshSpare();
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
    this.refreshSpare();
    this.deps.changed();
  }

  destroy(): void {
    this.destroyed = true;
    this.deps.warm?.release(this);
    this.dropSpare();
    this.generation++;
    this.track?.decoder.kill();
    this.track = null;
    const out = this.out;
    this.out = null;
    out?.finish();
    this.audio.stop(true);
    out?.destroy(); // the player reads no more: its encoder is freed now
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
    this.track?.decoder.kill();
    this.track = null;
    const out = this.out;
    this.out = null;
    if (!out) return;
    out.finish();
    // The voice player reads the five silence frames and the end (100 ms); a paused one never does, and the
    // session's encoder must be freed all the same.
    setTimeout(() => out.destroy(), OUTPUT_END_MS).unref();
  }

  /**
   * Starts an ffmpeg for the current song at `position`, waits for its first packet, then switches to it
   * (or starts the output). A song that cannot start is skipped; a change that cannot start leaves the
   * song playing as it was.
   */
  private async startTrack(position: number, reuseInput = true): Promise<void> {
    try {
      await this.startTrackNow(position, reuseInput);
    } finally {
      // The next warm ffmpeg starts once this change is heard (or failed): its start (≈ 0.1 s of a core)
      // does not compete with the switch.
      this.deps.warm?.refill();
    }
  }

  private async startTrackNow(position: number, reuseInput: boolean): Promise<void> {
    const song = this.current;
    if (!song) return;
    const generation = ++this.generation;
    this.pendingPosition = position;
    this.deps.changed();
    let decoder: Decoder | undefined;
    let input: TrackInput | undefined;
    try {
      await loadEncoder(); // the encoder's module, loaded with the first track (nothing at start-up)
      const spare = position === 0 ? await this.takeSpare(song) : null;
      if (spare) {
        ({ decoder, input } = spare);
      } else {
        input = (reuseInput ? this.reusableInput(song) : null) ?? (await this.deps.inputFor(song));
        decoder = await this.decode(input, position);
      }
    } catch (err) {
      this.deps.log.warn(
        { err: (err as Error).message, ffmpeg: decoder?.stderr().trim(), song: song.url },
        'music: cannot start track',
      );
      decoder?.kill();
      this.lastStartFailure = decoder
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
      decoder.kill(); // replaced while ffmpeg was starting
      return;
    }
    const track: Track = {
      pcm: decoder.pcm,
      consumed: 0,
      // Its gain as known now (0 dB until it is measured, see loudnessMeasured).
      gainDb: this.gainFor(song),
      decoder,
      song,
      input,
      startedAt: position,
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
    const retire = () => decoder.kill();
    if (this.out && !this.out.isFinishing) {
      // The old ffmpeg is ended by the switch, once the new one is playing.
      await this.out.switchTo(track, retire);
    } else {
      // A new session: its one encoder, and the live chain with the settings as they are now.
      const out = new PacketSwitch(createEncoder(), this.liveSettings());
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
      old?.decoder.kill(); // a track left from an output that was finishing
    }
    this.refreshSpare();
    this.deps.changed();
  }

  /**
   * An ffmpeg for `input` from `position` with its first audio: a warm one given its input when one waits,
   * else one started now. Rejects (having ended it) when it delivers no audio.
   */
  private async decode(input: TrackInput, position: number): Promise<Decoder> {
    const start = async (warm: boolean) =>
      startDecoder({
        ffmpegPath: this.deps.ffmpegPath,
        processes: this.deps.processes,
        input,
        startSeconds: position,
        // Only for an input a script can name (not one with request headers): a warm one stays for the next.
        warm: warm && warmScript(input, position) !== null ? await this.deps.warm?.takeSoon() : null,
      });
    const decoder = await start(true);
    try {
      await firstAudio(decoder);
      return decoder;
    } catch (err) {
      const endedEmpty = decoder.pcm.ended;
      decoder.kill();
      // A warm ffmpeg whose output ended with nothing may have been gone before it got its input (killed
      // while it waited): that says nothing of the song, which gets one ffmpeg started for it.
      if (!decoder.warm || !endedEmpty) throw err;
    }
    const fresh = await start(false);
    try {
      await firstAudio(fresh);
      return fresh;
    } catch (err) {
      fresh.kill();
      throw err;
    }
  }

  /** The song's loudness gain in dB: 0 with normalisation off or before its measurement. */
  private gainFor(song: Song): number {
    return this.normalize ? loudnessGainDb(this.deps.loudnessOf(song)) : 0;
  }

  /**
   * Starts (or keeps) the next queued song's ffmpeg, once this turn's queue changes are done. Called when the
   * queue or the track changes.
   */
  refreshSpare(): void {
    if (this.spareScheduled) return;
    this.spareScheduled = true;
    // A moment later: not in the same instant as the switch or the start that asked for it.
    setTimeout(() => {
      this.spareScheduled = false;
      void this.startSpare();
    }, SPARE_DELAY_MS).unref();
  }

  private async startSpare(): Promise<void> {
    const next = this.current && !this.destroyed ? this.queue[0] : undefined;
    if (!next) {
      this.dropSpare();
      return;
    }
    const kept = this.spare ?? this.spareStarting;
    if (kept && kept.entryId === next.entryId) return;
    this.dropSpare();
    const done = this.prepare(next);
    this.spareStarting = { entryId: next.entryId, done };
    await done;
    if (this.spareStarting?.done === done) this.spareStarting = null;
  }

  private async prepare(next: Song): Promise<void> {
    const generation = this.spareGeneration;
    let decoder: Decoder | undefined;
    try {
      const input = await this.deps.inputFor(next);
      if (generation !== this.spareGeneration) return;
      decoder = await startDecoder({
        ffmpegPath: this.deps.ffmpegPath,
        processes: this.deps.processes,
        input,
        startSeconds: 0,
        background: true,
      });
      if (generation !== this.spareGeneration) {
        decoder.kill();
        return;
      }
      this.spare = { entryId: next.entryId, decoder, input };
    } catch (err) {
      // Not needed to play: the song starts its own ffmpeg when its turn comes.
      decoder?.kill();
      this.deps.log.debug({ err: (err as Error).message }, 'music: the next song could not be prepared');
    }
  }

  /** The spare, when it is this song's at 0 s and has audio; it is no longer the spare. */
  private async takeSpare(song: Song): Promise<Spare | null> {
    // A skip while the next song's ffmpeg is still starting waits for it rather than starting a second one.
    const starting = this.spareStarting;
    if (!this.spare && starting?.entryId === song.entryId) await starting.done;
    const spare = this.spare;
    if (!spare || spare.entryId !== song.entryId) return null;
    this.spare = null;
    this.spareGeneration++;
    try {
      await firstAudio(spare.decoder);
      return spare;
    } catch {
      spare.decoder.kill(); // it failed meanwhile (an expired URL): a fresh start instead
      return null;
    }
  }

  private dropSpare(): void {
    this.spareGeneration++;
    this.spareStarting = null;
    this.spare?.decoder.kill();
    this.spare = null;
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
    const exit = await track.decoder.exited;
    if (track !== this.track) return;
    const position = this.elapsed();
    const song = this.current;
    const nearEnd = song && song.duration > 0 && position >= song.duration - 1;
    if (exit.crashed && song && !nearEnd && this.crashRestarts < CRASH_RESTARTS) {
      this.crashRestarts++;
      this.deps.log.warn(
        { code: exit.code, signal: exit.signal, ffmpeg: track.decoder.stderr().trim(), position },
        'music: ffmpeg stopped mid-track; restarting where it was',
      );
      // A fresh stream URL: the old one may be why ffmpeg stopped (expired, refused).
      await this.startTrack(position, false);
      return;
    }
    if (exit.crashed) {
      this.deps.log.warn(
        { code: exit.code, signal: exit.signal, ffmpeg: track.decoder.stderr().trim() },
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
 * Decoded audio a new ffmpeg must hold before the switch: four frames at the fastest speed (80 ms of song,
 * which a starting ffmpeg delivers together), so a loaded machine's slower next output cannot leave the
 * player a frame with nothing to send right after the switch.
 */
const READY_FRAMES = Math.ceil(4 * FRAME * MAX_RATE);

/** Resolves once ffmpeg's output holds its first audio (or all there is); rejects when it ends with none. */
function firstAudio(d: Decoder): Promise<void> {
  const pcm = d.pcm;
  if (pcm.frames >= READY_FRAMES || (pcm.ended && pcm.frames > 0)) return Promise.resolve();
  if (pcm.ended)
    return Promise.reject(new Error(`ffmpeg delivered no audio: ${d.stderr().trim() || 'no output'}`));
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      pcm.off('data', onData);
      pcm.off('end', onEnd);
      if (err) reject(err);
      else resolve();
    };
    const onData = () => {
      if (pcm.frames >= READY_FRAMES) done();
    };
    const onEnd = () =>
      pcm.frames > 0
        ? done()
        : done(new Error(`ffmpeg delivered no audio: ${d.stderr().trim() || 'no output'}`));
    const timer = setTimeout(() => {
      if (pcm.frames > 0) done();
      else done(new Error('ffmpeg delivered no audio in time'));
    }, FIRST_PACKET_TIMEOUT_MS);
    pcm.on('data', onData);
    pcm.once('end', onEnd);
  });
}
