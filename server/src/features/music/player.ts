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
  type EqSettings,
  FLAT_EQ,
  MUSIC_HISTORY_KEPT,
  type MusicEffect,
  type Song,
  type VoiceChannelInfo,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import { playbackRate, startTranscoder, type TrackInput, type Transcoder } from './ffmpeg.ts';

export type PlayerDeps = {
  ffmpegPath: string;
  log: FastifyBaseLogger;
  /** Where ffmpeg reads a song's audio (looked up each time a track starts: stream URLs expire). */
  inputFor: (song: Song) => Promise<TrackInput>;
  /** Called after every change of this guild's playback. */
  changed: () => void;
};

/**
 * One guild's playback: the queue, the song playing, recent history, effects and equalizer. Audio runs
 * through one ffmpeg per playing track (decode, filter, Opus) into `@discordjs/voice`; a change of
 * effects, equalizer or position starts a new ffmpeg at the current position (`-ss`).
 *
 * Elapsed time = the position the current ffmpeg started at + the audio the voice player has sent so
 * far (its playbackDuration, which stops while paused) × the effects' speed. So it stays right through
 * pause, seek, and speed-changing effects.
 */
export class GuildPlayer {
  queue: Song[] = [];
  current: Song | null = null;
  history: Song[] = [];
  effects: MusicEffect[] = [];
  eq: EqSettings = { ...FLAT_EQ };
  channel: VoiceChannelInfo | null = null;
  private readonly audio: AudioPlayer;
  private resource: AudioResource | null = null;
  private transcoder: Transcoder | null = null;
  private startedAt = 0;
  private rate = 1;
  /** While paused, a change of filters or position waits for resume here (nobody hears it before). */
  private pendingPosition: number | null = null;
  /** Bumped whenever a track is replaced on purpose, so the old one's end is not taken for a finish. */
  private generation = 0;
  private connection: VoiceConnection | null = null;
  /**
   * The listener's pause, kept here rather than read from the voice player: a pause that lands while a
   * new ffmpeg is starting, or while its track still buffers, must hold once that track plays.
   */
  private wantPaused = false;

  private readonly deps: PlayerDeps;

  constructor(deps: PlayerDeps) {
    this.deps = deps;
    this.audio = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    this.audio.on('error', (err) => deps.log.warn({ err: err.message }, 'music: track failed'));
    this.audio.on('stateChange', (before, after) => {
      if (after.status === AudioPlayerStatus.Playing && this.wantPaused) {
        this.audio.pause(true);
        return;
      }
      if (after.status === AudioPlayerStatus.Idle && before.status !== AudioPlayerStatus.Idle) {
        const finished = (before as { resource?: AudioResource }).resource;
        if (finished && finished === this.resource) void this.finishCurrent();
      }
    });
  }

  get isPaused(): boolean {
    return this.current !== null && this.wantPaused;
  }

  get isPlaying(): boolean {
    return this.current !== null && !this.isPaused;
  }

  /** Song seconds played, clamped to the song's length when that is known. */
  elapsed(): number {
    if (!this.current) return 0;
    if (this.pendingPosition !== null) return this.pendingPosition;
    const played = this.startedAt + ((this.resource?.playbackDuration ?? 0) / 1000) * this.rate;
    return this.current.duration > 0 ? Math.min(played, this.current.duration) : played;
  }

  playbackRate(): number {
    return this.rate;
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
      this.queue.push(song);
      this.deps.changed();
      return 'queued';
    }
    this.current = song;
    this.wantPaused = false;
    await this.startTrack(0);
    return 'playing';
  }

  addAll(songs: Song[]): void {
    this.queue.push(...songs);
  }

  pause(): void {
    this.wantPaused = true;
    // The voice player pauses only while playing; a track still buffering is paused when it starts.
    this.audio.pause(true);
    this.deps.changed();
  }

  async resume(): Promise<void> {
    this.wantPaused = false;
    if (this.pendingPosition !== null) {
      await this.startTrack(this.pendingPosition);
      return;
    }
    this.audio.unpause();
    this.deps.changed();
  }

  async seek(seconds: number): Promise<void> {
    const max = this.current && this.current.duration > 0 ? this.current.duration : Number.POSITIVE_INFINITY;
    await this.restartAt(Math.min(Math.max(0, seconds), max));
  }

  async setEffects(effects: MusicEffect[]): Promise<void> {
    this.effects = effects;
    await this.restartAt(this.elapsed());
  }

  async setEq(eq: EqSettings): Promise<void> {
    this.eq = eq;
    await this.restartAt(this.elapsed());
  }

  async skip(): Promise<void> {
    await this.finishCurrent();
  }

  /** Stops the song playing (into history); the queue stays. */
  stop(): void {
    this.generation++;
    this.toHistory();
    this.current = null;
    this.pendingPosition = null;
    this.resource = null; // so the player's Idle is not taken for the song finishing
    this.killTrack();
    this.audio.stop(true);
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

  destroy(): void {
    this.generation++;
    this.resource = null;
    this.killTrack();
    this.audio.stop(true);
  }

  private async restartAt(position: number): Promise<void> {
    if (!this.current) return;
    if (this.isPaused) {
      this.pendingPosition = position;
      this.deps.changed();
      return;
    }
    await this.startTrack(position);
  }

  private async finishCurrent(): Promise<void> {
    this.generation++;
    this.toHistory();
    this.killTrack();
    this.pendingPosition = null;
    const next = this.queue.shift() ?? null;
    this.current = next;
    this.wantPaused = false; // the next song plays
    if (next) await this.startTrack(0);
    else {
      this.resource = null;
      this.audio.stop(true);
      this.deps.changed();
    }
  }

  private toHistory(): void {
    if (this.current) this.history = [this.current, ...this.history].slice(0, MUSIC_HISTORY_KEPT);
  }

  private killTrack(): void {
    this.transcoder?.kill();
    this.transcoder = null;
  }

  private async startTrack(position: number): Promise<void> {
    const song = this.current;
    if (!song) return;
    const generation = ++this.generation;
    this.pendingPosition = null;
    let transcoder: Transcoder;
    try {
      transcoder = await startTranscoder({
        ffmpegPath: this.deps.ffmpegPath,
        input: await this.deps.inputFor(song),
        startSeconds: position,
        effects: this.effects,
        eq: this.eq,
      });
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message, song: song.url }, 'music: cannot start track');
      if (generation === this.generation) await this.finishCurrent();
      return;
    }
    if (generation !== this.generation) {
      transcoder.kill(); // replaced while ffmpeg was starting
      return;
    }
    this.killTrack();
    this.transcoder = transcoder;
    transcoder.output.once('close', () => {
      const err = transcoder.stderr().trim();
      if (err && this.transcoder === transcoder)
        this.deps.log.warn({ ffmpeg: err, song: song.url }, 'music: ffmpeg');
    });
    const resource = createAudioResource(transcoder.output, { inputType: StreamType.OggOpus });
    this.resource = resource;
    this.startedAt = position;
    this.rate = playbackRate(this.effects);
    this.audio.play(resource); // starts paused when a pause came meanwhile (see the stateChange handler)
    this.deps.changed();
  }
}
