import { randomUUID } from 'node:crypto';
import {
  type AccessLevel,
  botReconnectingText,
  duplicatesLeftOutText,
  type EqSettings,
  hasLevel,
  linkCutText,
  MUSIC_LINK_TRACKS_MAX,
  MUSIC_LOOP_LABELS,
  MUSIC_OPTION_MESSAGES,
  MUSIC_PAUSED_LEAVE_MS,
  MUSIC_PLATFORM_LABELS,
  MUSIC_POSITION_SAVE_MS,
  MUSIC_QUEUE_MAX,
  MUSIC_QUEUE_TEXTS,
  MUSIC_TEXTS,
  type MusicAutoplayMiss,
  type MusicEffect,
  type MusicLoopMode,
  type MusicOptionKey,
  type MusicPlatform,
  type PlatformHealth,
  type PlaybackStatus,
  platformUnavailableText,
  type SearchResult,
  type Song,
  skipVoteText,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { UsersTable } from '../../db/schema.ts';
import { fail } from '../../platform/errors.ts';
import type { ProcessSpawner } from '../../platform/process/index.ts';
import type { Autoplay } from './autoplay.ts';
import type { MusicBot } from './bot.ts';
import type { Loudness } from './ffmpeg.ts';
import type { HistoryStore } from './history/store.ts';
import type { LoudnessCache } from './loudness.ts';
import { runMediaJob } from './media-jobs.ts';
import type { PlaybackStore } from './playback-store.ts';
import type { GuildPlayer, PlayerSettings, StoredPlayback } from './player.ts';
import { type BotLink, emptyStatus, presentStatus, requesterOf, storedStatus } from './present.ts';
import { songKey } from './queue-order.ts';
import type { MusicSource } from './sources/types.ts';
import type { WarmDecoders } from './warm-decoders.ts';

export type MusicEngine = {
  log: FastifyBaseLogger;
  ffmpegPath: string;
  /** The platform's process spawner: every track's ffmpeg starts through it. */
  processes: ProcessSpawner;
  /** ffmpegs started ahead, one per guild in a voice channel (players take them for seeks and new songs). */
  warm?: WarmDecoders;
  bot: MusicBot | null;
  sources: MusicSource[];
  publish: (status: PlaybackStatus) => void;
  defaultGuildId: string | null;
  /** How long the bot stays in a channel alone or with nothing to play (MUSIC_IDLE_LEAVE_SECONDS). */
  idleLeaveMs: number;
  /** How long a paused song keeps the bot in a channel with listeners. */
  pausedLeaveMs?: number;
  /** Per-server volume, normalisation and loop, kept in the database. */
  settings: {
    load(guildId: string): Promise<PlayerSettings>;
    save(guildId: string, settings: PlayerSettings): Promise<void>;
  };
  loudness: LoudnessCache;
  /** Where each guild's playback is kept (issue 42): written on every change, read back on start. */
  store: PlaybackStore | null;
  /** What played on each server (issue 48): every song that starts is recorded there. */
  history?: HistoryStore | null;
  /** Autoplay's pick of a related song when a server's queue ends (issue 48). */
  autoplay?: Autoplay | null;
};

/** Who is asking: the member and the level they act with (moderators and above skip the channel rule). */
export type Caller = { user: UsersTable; level: AccessLevel };

export type ControlAction = 'pause' | 'resume' | 'skip' | 'stop' | 'restart' | 'clearQueue';

/**
 * The player and the Discord voice library under it (with the Ogg demuxer), loaded when the first guild
 * gets a player: they cost nothing at start-up (bench/startup).
 */
let playerModule: Promise<typeof import('./player.ts')> | undefined;
const loadPlayerModule = () => {
  playerModule ??= import('./player.ts');
  return playerModule;
};

/**
 * The playback rules: who may play, where the bot goes, one GuildPlayer per guild, pushes on every
 * change, and leaving a channel after MUSIC_IDLE_LEAVE_MS alone or idle.
 */
/** How long a platform health answer is reused (the panel re-checks every minute; /readyz may ask often). */
const HEALTH_TTL_MS = 60_000;
/** How long /readyz waits for the platforms' first answer (its own limit per check is 1.5 s). */
const READINESS_PLATFORM_WAIT_MS = 1_000;

export class MusicService {
  private readonly players = new Map<string, GuildPlayer>();
  /** Autoplay's last answer per guild, for the song it was asked after (issue 48). */
  private readonly autoplayMisses = new Map<string, { entryId: string; miss: MusicAutoplayMiss | null }>();
  private readonly idleTimers = new Map<string, { timer: NodeJS.Timeout; kind: 'idle' | 'paused' }>();
  private health: { at: number; result: Promise<(PlatformHealth & { detail: string | null })[]> } | null =
    null;
  private readonly loggedReasons = new Map<MusicPlatform, string | null>();
  private encoder: { at: number; result: Promise<string | null> } | null = null;
  /** While closing: the players' last events (voice connections destroyed) are neither pushed nor stored. */
  private closing = false;
  /**
   * Guilds whose stored playback is being taken up (restore): until their song plays again, their half-made
   * player (the queue back, the song not yet) is neither stored nor pushed — the bot's own join in between
   * stored it with no song, and members saw "stopped" where the song was about to play on.
   */
  private readonly restoring = new Set<string>();
  private positionSaves: NodeJS.Timeout | null = null;

  private readonly e: MusicEngine;

  constructor(e: MusicEngine) {
    this.e = e;
    if (e.bot) this.attachBot(e.bot);
  }

  /** Follows voice-state changes (listeners joining or leaving) once the bot is online. */
  attachBot(bot: MusicBot): void {
    this.e.bot = bot;
    this.closing = false;
    this.startPositionSaves();
    bot.onVoiceStateChange((c) => {
      if (this.players.has(c.guildId)) this.changed(c.guildId);
    });
    // The badge follows the link: every guild's status when the gateway changes, one guild's for its voice.
    bot.onLinkChange((guildId) => {
      for (const g of guildId ? [guildId] : [...this.players.keys()]) {
        if (this.players.has(g)) this.changed(g);
      }
    });
  }

  get online(): boolean {
    return this.e.bot?.isReady() ?? false;
  }

  /** The bot's link as the badge shows it: a guild's voice counts only while the bot is in a channel there. */
  link(guildId: string): BotLink {
    const bot = this.e.bot;
    if (!bot) return { state: 'offline', since: null };
    const gateway = bot.gateway();
    if (!gateway.up) return { state: 'reconnecting', since: new Date(gateway.since).toISOString() };
    const voice = this.players.get(guildId)?.channel ? bot.voice(guildId) : null;
    if (voice && !voice.up) return { state: 'reconnecting', since: new Date(voice.since).toISOString() };
    return { state: 'online', since: null };
  }

  /**
   * For /readyz (an optional check): throws naming what is down, for the operator. Music off (no token)
   * is not a fault.
   */
  async readiness(hasToken: boolean, loginError: () => string | null): Promise<void> {
    if (!hasToken) return;
    const bot = this.e.bot;
    if (!bot) throw new Error(`the bot is not logged in to Discord: ${loginError() ?? 'logging in'}`);
    const gateway = bot.gateway();
    if (!gateway.up) {
      throw new Error(`Discord gateway down for ${secondsSince(gateway.since)} s: ${gateway.reason}`);
    }
    const voiceDown = [...this.players.keys()]
      .map((g) => [g, bot.voice(g)] as const)
      .filter(([, v]) => v && !v.up)
      .map(([g, v]) => `guild ${g} for ${v && !v.up ? secondsSince(v.since) : 0} s`);
    if (voiceDown.length) throw new Error(`voice connection reconnecting: ${voiceDown.join(', ')}`);
    // The platforms answer within /readyz's time limit or are reported from the next probe on (the
    // check goes on in the background and its answer is kept for a minute).
    let waited: NodeJS.Timeout | undefined;
    const [encoder, platforms] = await Promise.all([
      this.checkEncoder(),
      Promise.race([
        this.checkPlatforms(),
        new Promise<null>((r) => {
          waited = setTimeout(() => r(null), READINESS_PLATFORM_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(waited)),
    ]);
    const down = (platforms ?? []).filter((p) => !p.available);
    const problems = [...(encoder ? [encoder] : []), ...down.map((p) => `${p.name}: ${p.detail}`)];
    if (problems.length) throw new Error(problems.join('; '));
  }

  /** Whether ffmpeg runs (`-version`), checked at most once a minute; the reason when it does not. */
  private checkEncoder(): Promise<string | null> {
    const now = Date.now();
    if (this.encoder && now - this.encoder.at < HEALTH_TTL_MS) return this.encoder.result;
    const result = runMediaJob(this.e.processes, this.e.ffmpegPath, ['-hide_banner', '-version'], {
      timeoutMs: 5_000,
      read: 'stdout',
    }).then(({ output, code }) =>
      code === 0 && output.startsWith('ffmpeg version')
        ? null
        : `ffmpeg (${this.e.ffmpegPath}) does not run: set FFMPEG_PATH or install ffmpeg`,
    );
    this.encoder = { at: now, result };
    return result;
  }

  guilds() {
    return { guilds: this.e.bot?.guilds() ?? [], defaultGuildId: this.e.defaultGuildId };
  }

  status(guildId: string): PlaybackStatus {
    const bot = this.e.bot;
    const player = this.players.get(guildId);
    const link = this.link(guildId);
    if (!bot || !player) return emptyStatus(guildId, this.online, link);
    const humans = player.channel ? bot.listenerIds(guildId, player.channel.id) : [];
    return {
      ...presentStatus(guildId, player, humans, this.online, link),
      autoplayMiss: this.autoplayMiss(guildId, player),
    };
  }

  /** Why autoplay added nothing after the last song, while nothing plays because of it (issue 48). */
  private autoplayMiss(guildId: string, player: GuildPlayer): MusicAutoplayMiss | null {
    const last = this.autoplayMisses.get(guildId);
    if (!last?.miss || player.current || player.queue.length > 0 || !player.options.autoplay) return null;
    return player.history[0]?.entryId === last.entryId ? last.miss : null;
  }

  /** Each platform's health in member-facing words; the operator's detail is logged (and in /readyz). */
  async platforms(): Promise<PlatformHealth[]> {
    return (await this.checkPlatforms()).map(({ detail: _detail, ...health }) => health);
  }

  private checkPlatforms() {
    const now = Date.now();
    if (this.health && now - this.health.at < HEALTH_TTL_MS) return this.health.result;
    const result = Promise.all(
      this.e.sources.map(async (s) => {
        const h = await s.health().catch((err: Error) => ({ available: false, reason: err.message }));
        const name = MUSIC_PLATFORM_LABELS[s.platform];
        const detail = h.available ? null : (h.reason ?? 'no reason given');
        if (this.loggedReasons.get(s.platform) !== detail) {
          // Once per change, not per check: the reason is for the operator.
          this.loggedReasons.set(s.platform, detail);
          if (detail)
            this.e.log.warn({ platform: s.platform, reason: detail }, 'music: platform unavailable');
          else this.e.log.info({ platform: s.platform }, 'music: platform available');
        }
        return {
          platform: s.platform,
          name,
          available: h.available,
          reason: h.available ? null : platformUnavailableText(name),
          checkedAt: new Date().toISOString(),
          detail,
        };
      }),
    );
    this.health = { at: now, result };
    return result;
  }

  async search(query: string, maxResults: number, platform: MusicPlatform): Promise<SearchResult[]> {
    const source = this.source(platform);
    try {
      return await source.search(query, maxResults);
    } catch (err) {
      this.e.log.warn({ err: (err as Error).message, platform }, 'music: search failed');
      // The client adds "Search failed: "; the member reads which platform, the operator the log.
      throw fail('PLATFORM_UNAVAILABLE', platformUnavailableText(MUSIC_PLATFORM_LABELS[platform]));
    }
  }

  /** Plays or queues a song for the caller, joining the caller's voice channel when needed. */
  async play(caller: UsersTable, guildId: string, url: string, userId?: string) {
    const bot = this.requireGuild(guildId);
    const channel = this.requireVoice(caller, guildId, userId);
    const source = this.e.sources.find((s) => s.owns(url));
    if (!source) throw fail('UNSUPPORTED_URL', MUSIC_TEXTS.unsupportedUrl);
    if (source.isList?.(url) && source.resolveList) return this.playList(caller, guildId, url, source);
    // Nothing playing: the song starts at once, its ffmpeg beside a probe of its length (issue 48).
    const idle = !this.players.get(guildId)?.current;
    const resolved = await (idle && source.resolveNow
      ? source.resolveNow(url)
      : source.resolve(url).then((found) => (found ? { found, duration: null } : null))
    ).catch((err: Error) => {
      this.e.log.warn({ err: err.message, platform: source.platform }, 'music: resolve failed');
      throw fail('PLATFORM_UNAVAILABLE', platformUnavailableText(MUSIC_PLATFORM_LABELS[source.platform]));
    });
    if (!resolved) throw fail('SONG_NOT_FOUND', MUSIC_TEXTS.songNotFound);
    const { found } = resolved;
    const player = await this.playerIn(bot, guildId, channel);
    if (player.queue.length >= MUSIC_QUEUE_MAX) throw fail('QUEUE_FULL', MUSIC_TEXTS.queueFull);
    if (player.options.noDuplicates && player.holds(found)) {
      throw fail('DUPLICATE_IN_QUEUE', MUSIC_QUEUE_TEXTS.duplicate);
    }
    const song: Song = { ...found, entryId: randomUUID(), requestedBy: requesterOf(caller) };
    const action = await player.add(song);
    if (resolved.duration && song.duration === 0) {
      // The length, probed beside the song's ffmpeg, is known before the answer (the status, the scrubber and the
      // lyrics lookup use it); the probe has its own time limit.
      const seconds = await resolved.duration;
      if (seconds > 0 && song.duration === 0) {
        song.duration = seconds;
        this.changed(guildId);
      }
    }
    // Its loudness is measured after its first packet when it plays at once (`started`), so the measurement
    // does not compete with its ffmpeg's start; a queued song is measured now, before its turn.
    if (action === 'queued') this.measure(song);
    if (action === 'playing' && player.current?.entryId !== song.entryId) {
      // ffmpeg could not start on it: say so rather than "playing" (the log has the operator's detail).
      if (player.lastStartFailure === 'encoder') {
        throw fail('ENCODER_UNAVAILABLE', MUSIC_TEXTS.encoderUnavailable);
      }
      throw fail('PLAY_FAILED', MUSIC_TEXTS.audioUnavailable);
    }
    return {
      song,
      action,
      position: action === 'queued' ? player.indexOf(song.entryId) : null,
      status: this.status(guildId),
    };
  }

  /**
   * A list link (a YouTube playlist, a SoundCloud set): its tracks are queued (the first plays when nothing does), at most
   * MUSIC_LINK_TRACKS_MAX, with a message saying how many were left out.
   */
  private async playList(caller: UsersTable, guildId: string, url: string, source: MusicSource) {
    const list = await source.resolveList?.(url, MUSIC_LINK_TRACKS_MAX).catch((err: Error) => {
      this.e.log.warn({ err: err.message, platform: source.platform }, 'music: list resolve failed');
      throw fail('PLATFORM_UNAVAILABLE', platformUnavailableText(MUSIC_PLATFORM_LABELS[source.platform]));
    });
    if (!list) throw fail('LIST_NOT_FOUND', MUSIC_TEXTS.listNotFound);
    if (list.songs.length === 0) throw fail('PLAYLIST_EMPTY', MUSIC_TEXTS.playlistEmpty);
    const result = await this.playMany(caller, guildId, list.songs, false);
    const player = this.players.get(guildId);
    const position = player?.indexOf(result.firstEntryId) ?? -1;
    const first = result.action === 'playing' ? player?.current : player?.queue[position];
    if (!first) throw fail('PLAY_FAILED', MUSIC_TEXTS.audioUnavailable);
    const counted =
      list.total > result.added + result.duplicates
        ? linkCutText(result.added, list.total)
        : `Queued ${result.added} tracks`;
    const message = result.duplicates ? `${counted}; ${duplicatesLeftOutText(result.duplicates)}` : counted;
    return {
      song: first,
      action: result.action,
      position: result.action === 'queued' ? position : null,
      status: result.status,
      added: result.added,
      message,
    };
  }

  /** Plays (replacing the queue) or queues many songs at once: a playlist. */
  async playMany(
    caller: UsersTable,
    guildId: string,
    songs: SearchResult[],
    clearQueue: boolean,
  ): Promise<{
    added: number;
    duplicates: number;
    /** The queue entry of the list's first song (where it was queued, or playing). */
    firstEntryId: string;
    action: 'playing' | 'queued';
    status: PlaybackStatus;
  }> {
    const bot = this.requireGuild(guildId);
    const channel = this.requireVoice(caller, guildId);
    const player = await this.playerIn(bot, guildId, channel);
    if (clearQueue) player.queue = [];
    const allowed = player.options.noDuplicates ? withoutDuplicates(songs, player) : songs;
    const duplicates = songs.length - allowed.length;
    if (allowed.length === 0 && duplicates > 0) throw fail('DUPLICATE_IN_QUEUE', MUSIC_QUEUE_TEXTS.duplicate);
    const entries = allowed.map((s) => ({ ...s, entryId: randomUUID(), requestedBy: requesterOf(caller) }));
    for (const e of entries.slice(0, 5)) this.measure(e); // the next few; the rest when they come up
    const room = MUSIC_QUEUE_MAX - player.queue.length;
    const taken = entries.slice(0, Math.max(0, room));
    if (taken.length === 0) throw fail('QUEUE_FULL', MUSIC_TEXTS.queueFull);
    const [first, ...rest] = taken;
    let action: 'playing' | 'queued' = 'queued';
    if (first && player.current && !clearQueue) {
      player.addAll(taken);
    } else if (first) {
      if (player.current) player.stop();
      player.addAll(rest);
      action = await player.add(first);
    }
    this.changed(guildId);
    return {
      added: taken.length,
      duplicates,
      firstEntryId: first?.entryId ?? '',
      action,
      status: this.status(guildId),
    };
  }

  async control(caller: Caller, guildId: string, action: ControlAction) {
    const player = this.requirePlayer(guildId);
    const needsSong = action !== 'clearQueue';
    if (needsSong && !player.current) throw fail('NOTHING_PLAYING', MUSIC_TEXTS.nothingPlaying);
    this.requireListening(caller, guildId, player);
    const messages = {
      pause: 'Paused',
      resume: 'Resumed',
      skip: MUSIC_TEXTS.skipped,
      stop: 'Stopped',
      restart: 'Restarted',
      clearQueue: 'Queue cleared',
    } as const;
    if (action === 'skip') return this.skip(caller, guildId, player);
    if (action === 'pause') player.pause();
    else if (action === 'resume') player.resume();
    else if (action === 'stop') player.stop();
    else if (action === 'restart') await player.seek(0);
    else player.clearQueue();
    return { message: messages[action], status: this.status(guildId) };
  }

  /**
   * Discord-style vote-skip: the song's requester, moderators and above, and a member alone with the bot
   * skip at once; anyone else's skip is a vote, and the song is skipped once more than half of the humans
   * in the channel voted (votes of members who left no longer count).
   */
  private async skip(caller: Caller, guildId: string, player: GuildPlayer) {
    const me = caller.user.discord_id;
    const humans = player.channel ? (this.e.bot?.listenerIds(guildId, player.channel.id) ?? []) : [];
    const immediate =
      hasLevel(caller.level, 'moderator') ||
      player.current?.requestedBy.id === me ||
      humans.every((id) => id === me);
    if (!immediate) {
      player.skipVotes.set(me, caller.user.global_name ?? caller.user.username);
      const votes = [...player.skipVotes.keys()].filter((id) => humans.includes(id)).length;
      const needed = skipVotesNeeded(humans.length);
      if (votes < needed) {
        this.changed(guildId);
        return { message: skipVoteText(votes, needed), status: this.status(guildId) };
      }
    }
    await player.skip();
    return { message: MUSIC_TEXTS.skipped, status: this.status(guildId) };
  }

  async reorder(caller: Caller, guildId: string, from: number, to: number) {
    const player = this.requirePlayer(guildId);
    this.requireListening(caller, guildId, player);
    if (from >= player.queue.length || to >= player.queue.length) {
      throw fail('INDEX_OUT_OF_RANGE', MUSIC_TEXTS.indexOutOfRange);
    }
    player.reorder(from, to);
    return { message: 'Queue reordered', status: this.status(guildId) };
  }

  /** Removes one queue entry. */
  async removeEntry(caller: Caller, guildId: string, entryId: string) {
    const player = this.requirePlayer(guildId);
    this.requireListening(caller, guildId, player);
    const index = player.indexOf(entryId);
    if (index < 0) throw fail('QUEUE_ENTRY_NOT_FOUND', MUSIC_TEXTS.queueEntryNotFound);
    const song = player.remove(index);
    return { message: `Removed ${song?.title ?? 'the song'} from the queue`, status: this.status(guildId) };
  }

  /** Moves one queue entry to the top: it plays next. */
  async playNext(caller: Caller, guildId: string, entryId: string) {
    const player = this.requirePlayer(guildId);
    this.requireListening(caller, guildId, player);
    const index = player.indexOf(entryId);
    if (index < 0) throw fail('QUEUE_ENTRY_NOT_FOUND', MUSIC_TEXTS.queueEntryNotFound);
    player.reorder(index, 0);
    const song = player.queue[0];
    if (song) this.measure(song);
    return { message: `${song?.title ?? 'The song'} plays next`, status: this.status(guildId) };
  }

  async shuffle(caller: Caller, guildId: string) {
    const player = this.requirePlayer(guildId);
    this.requireListening(caller, guildId, player);
    player.shuffle();
    return { message: 'Queue shuffled', status: this.status(guildId) };
  }

  async seek(caller: Caller, guildId: string, seconds: number) {
    const player = this.requireSong(guildId);
    this.requireListening(caller, guildId, player);
    await player.seek(seconds);
    return { message: 'Seeked', status: this.status(guildId) };
  }

  async setEffects(caller: Caller, guildId: string, effects: MusicEffect[]) {
    const player = this.requireSong(guildId);
    this.requireListening(caller, guildId, player);
    await player.setEffects(effects);
    return { message: 'Effects applied', status: this.status(guildId) };
  }

  async setEq(caller: Caller, guildId: string, eq: EqSettings) {
    const player = this.requireSong(guildId);
    this.requireListening(caller, guildId, player);
    await player.setEq(eq);
    return { message: 'Equalizer applied', status: this.status(guildId) };
  }

  /** Volume, normalisation and loop: kept per server, applied at once when something plays. */
  async setVolume(caller: Caller, guildId: string, volume: number) {
    const player = await this.settingsPlayer(caller, guildId);
    await player.setVolume(volume);
    await this.saveSettings(guildId, player);
    return { message: `Volume ${volume} %`, status: this.status(guildId) };
  }

  async setNormalize(caller: Caller, guildId: string, enabled: boolean) {
    const player = await this.settingsPlayer(caller, guildId);
    await player.setNormalize(enabled);
    await this.saveSettings(guildId, player);
    return {
      message: enabled ? 'Loudness normalisation on' : 'Loudness normalisation off',
      status: this.status(guildId),
    };
  }

  async setLoop(caller: Caller, guildId: string, mode: MusicLoopMode) {
    const player = await this.settingsPlayer(caller, guildId);
    player.setLoop(mode);
    await this.saveSettings(guildId, player);
    return { message: MUSIC_LOOP_LABELS[mode], status: this.status(guildId) };
  }

  /** Fair queue or no duplicates on or off (issue 48): kept per server, applies to the next song queued. */
  async setOption(caller: Caller, guildId: string, option: MusicOptionKey, enabled: boolean) {
    const player = await this.settingsPlayer(caller, guildId);
    player.setOptions({ ...player.options, [option]: enabled });
    await this.saveSettings(guildId, player);
    const texts = MUSIC_OPTION_MESSAGES[option];
    return { message: enabled ? texts.on : texts.off, status: this.status(guildId) };
  }

  /** The source that owns a song url (for playlists), or null. */
  platformOf(url: string): MusicPlatform | null {
    return this.e.sources.find((s) => s.owns(url))?.platform ?? null;
  }

  /**
   * Stops every player and logs the bot out. With `save` (a graceful stop) each guild's playback is stored
   * first, at its exact position, and members are told the bot is reconnecting (another instance, or this
   * one after its restart, carries on); without it (the lease was lost: another instance holds the bot now)
   * nothing is written or pushed.
   */
  async close(o: { save: boolean } = { save: true }): Promise<void> {
    const store = this.e.store;
    const last: PlaybackStatus[] = [];
    if (o.save) {
      const since = new Date().toISOString();
      for (const [guildId, p] of this.players) {
        if (store) void store.save(guildId, () => p.snapshot());
        last.push(storedStatus(guildId, p.snapshot(), p.settings(), since));
      }
      await store?.flush();
    }
    this.closing = true;
    if (this.positionSaves) clearInterval(this.positionSaves);
    this.positionSaves = null;
    for (const t of this.idleTimers.values()) clearTimeout(t.timer);
    this.idleTimers.clear();
    for (const p of this.players.values()) p.destroy();
    this.players.clear();
    this.autoplayMisses.clear();
    const bot = this.e.bot;
    this.e.bot = null;
    await bot?.destroy();
    for (const status of last) this.e.publish(status);
  }

  /**
   * Carries on where the stored playback was (issue 42): for each guild with a song, rejoins its voice
   * channel and plays the song from its stored position (paused if it was), with its queue, history,
   * effects and equalizer; a guild with only a queue gets its queue back.
   */
  async restore(states: Map<string, StoredPlayback>): Promise<void> {
    const bot = this.e.bot;
    if (!bot) return;
    for (const [guildId, s] of states) {
      if (this.players.has(guildId) || !bot.hasGuild(guildId)) continue;
      if (!s.current && s.queue.length === 0) continue;
      this.restoring.add(guildId);
      try {
        await this.restoreGuild(bot, guildId, s);
      } finally {
        this.restoring.delete(guildId);
      }
      this.changed(guildId);
    }
  }

  /** One guild's stored playback: its player, its channel rejoined and its song from the stored position. */
  private async restoreGuild(bot: MusicBot, guildId: string, s: StoredPlayback): Promise<void> {
    const player = await this.createPlayer(guildId);
    player.loadStored(s);
    if (!s.current || !s.channel) return;
    try {
      await this.connect(bot, guildId, player, s.channel);
    } catch (err) {
      this.e.log.warn(
        { err: (err as Error).message, guildId },
        'music: cannot rejoin the stored voice channel',
      );
      player.queue.unshift(s.current); // not lost: it plays first when someone plays again
      return;
    }
    await player.resumeAt(s.current, s.position, s.paused);
    this.e.log.info({ guildId, song: s.current.url, position: s.position }, 'music: resumed the stored song');
  }

  /** Stores the position of every song playing, every MUSIC_POSITION_SAVE_MS. */
  private startPositionSaves(): void {
    const store = this.e.store;
    if (this.positionSaves || !store) return;
    this.positionSaves = setInterval(() => {
      for (const [guildId, p] of this.players) {
        if (p.isPlaying) void store.savePosition(guildId, Math.round(p.elapsed() * 1000) / 1000);
      }
    }, MUSIC_POSITION_SAVE_MS);
    this.positionSaves.unref();
  }

  private source(platform: MusicPlatform): MusicSource {
    const s = this.e.sources.find((x) => x.platform === platform);
    if (!s) throw fail('PLATFORM_NOT_SUPPORTED', MUSIC_TEXTS.platformUnavailable);
    return s;
  }

  /** The bot, with its gateway up: a control during an outage is answered at once, not after a timeout. */
  private requireBot(): MusicBot {
    const bot = this.e.bot;
    if (!bot) throw fail('BOT_OFFLINE', MUSIC_TEXTS.botOffline);
    const gateway = bot.gateway();
    if (!gateway.up) {
      throw fail('BOT_RECONNECTING', botReconnectingText('Discord', secondsSince(gateway.since)));
    }
    return bot;
  }

  /** A control that needs the audio to reach the channel: refused at once while the voice link is down. */
  private requireVoiceLink(bot: MusicBot, guildId: string): void {
    const voice = bot.voice(guildId);
    if (voice && !voice.up) {
      throw fail('BOT_RECONNECTING', botReconnectingText('the voice channel', secondsSince(voice.since)));
    }
  }

  private requireGuild(guildId: string): MusicBot {
    const bot = this.requireBot();
    if (!bot.hasGuild(guildId)) throw fail('GUILD_NOT_FOUND', MUSIC_TEXTS.guildNotFound);
    return bot;
  }

  private requirePlayer(guildId: string): GuildPlayer {
    this.requireGuild(guildId);
    const player = this.players.get(guildId);
    if (!player) throw fail('NOTHING_PLAYING', MUSIC_TEXTS.nothingPlaying);
    return player;
  }

  /**
   * Controls that change what everyone hears need the caller in the bot's voice channel; moderators and
   * above may act from anywhere (issue 27).
   */
  private requireListening(caller: Caller, guildId: string, player: GuildPlayer): void {
    if (hasLevel(caller.level, 'moderator')) return;
    const where = this.e.bot?.memberChannel(guildId, caller.user.discord_id) ?? null;
    if (!player.channel || where?.id !== player.channel.id) {
      throw fail('NOT_IN_BOT_CHANNEL', MUSIC_TEXTS.notInBotChannel);
    }
  }

  /** The player whose settings change: made (with the saved settings) when the server has none yet. */
  private async settingsPlayer(caller: Caller, guildId: string): Promise<GuildPlayer> {
    this.requireGuild(guildId);
    const player = this.players.get(guildId) ?? (await this.createPlayer(guildId));
    if (player.channel) this.requireListening(caller, guildId, player);
    else if (
      !hasLevel(caller.level, 'moderator') &&
      !this.e.bot?.memberChannel(guildId, caller.user.discord_id)
    ) {
      throw fail('NOT_IN_BOT_CHANNEL', MUSIC_TEXTS.notInBotChannel);
    }
    return player;
  }

  private async saveSettings(guildId: string, player: GuildPlayer): Promise<void> {
    await this.e.settings.save(guildId, player.settings()).catch((err: Error) => {
      // The setting works for this session; only keeping it for the next failed.
      this.e.log.warn({ err: err.message, guildId }, 'music: could not save the server settings');
    });
  }

  /** Starts measuring a song's loudness in the background (two measurements at once in the process). */
  private measure(song: Song): void {
    void this.e.loudness
      .measure(`${song.platform}:${song.id}`, () => this.source(song.platform).input(song))
      // The song playing, if it is this one, moves to its gain live (the players check).
      .then(() => {
        for (const player of this.players.values()) player.loudnessMeasured();
      });
  }

  private loudnessOf(song: Song): Loudness {
    const lufs = this.e.loudness.get(`${song.platform}:${song.id}`);
    // Not measured yet, or not measurable: played at 0 dB (see GuildPlayer.loudnessMeasured).
    return typeof lufs === 'number' ? { kind: 'gain', lufs } : { kind: 'unmeasured' };
  }

  private async createPlayer(guildId: string): Promise<GuildPlayer> {
    const settings = await this.e.settings.load(guildId).catch((err: Error) => {
      this.e.log.warn({ err: err.message, guildId }, 'music: could not read the server settings');
      return undefined;
    });
    const { GuildPlayer } = await loadPlayerModule();
    // Another request may have made it while the settings (or the player module) were read.
    const existing = this.players.get(guildId);
    if (existing) return existing;
    const player = new GuildPlayer(
      {
        ffmpegPath: this.e.ffmpegPath,
        processes: this.e.processes,
        warm: this.e.warm,
        log: this.e.log,
        inputFor: (song) => this.source(song.platform).input(song),
        loudnessOf: (song) => this.loudnessOf(song),
        changed: () => this.changed(guildId),
        started: (song) => {
          void this.e.history?.record(guildId, song);
          this.measure(song); // after its first packet, not competing with its start; its gain then ramps in
        },
        autoplay: async (finished, queued) => {
          const pick = await this.e.autoplay?.(guildId, finished, queued);
          // The last answer for the song that ended: the status says why nothing follows it.
          this.autoplayMisses.set(guildId, { entryId: finished.entryId, miss: pick?.miss ?? null });
          const song = pick?.song ?? null;
          // Measured now, as a queued song is: it then starts at its gain instead of 0 dB and a ramp.
          if (song) this.measure(song);
          return song;
        },
      },
      settings,
    );
    this.players.set(guildId, player);
    return player;
  }

  private requireSong(guildId: string): GuildPlayer {
    const player = this.requirePlayer(guildId);
    if (!player.current) throw fail('NOTHING_PLAYING', MUSIC_TEXTS.nothingPlaying);
    return player;
  }

  /** The caller must be a Discord identity, act as themselves, and sit in a voice channel of the guild. */
  private requireVoice(caller: UsersTable, guildId: string, userId?: string) {
    if (caller.provider !== 'discord') throw fail('DISCORD_ID_MISSING', MUSIC_TEXTS.discordIdMissing);
    if (userId !== undefined && userId !== caller.discord_id) {
      throw fail('USER_ID_MISMATCH', MUSIC_TEXTS.userIdMismatch);
    }
    const channel = this.requireBot().memberChannel(guildId, caller.discord_id);
    if (!channel) throw fail('NOT_IN_VOICE', MUSIC_TEXTS.notInVoice);
    return channel;
  }

  /**
   * The guild's player, connected: the bot joins the caller's channel when it is in none, or moves
   * there when it has nothing playing (it never pulls the music away from people listening to it).
   */
  private async playerIn(bot: MusicBot, guildId: string, channel: { id: string; name: string }) {
    const player = this.players.get(guildId) ?? (await this.createPlayer(guildId));
    if (player.channel) this.requireVoiceLink(bot, guildId);
    if (!player.channel || (player.channel.id !== channel.id && !player.current)) {
      try {
        await this.connect(bot, guildId, player, channel);
      } catch (err) {
        this.e.log.warn({ err: (err as Error).message, guildId }, 'music: cannot join voice');
        throw fail('VOICE_JOIN_FAILED', MUSIC_TEXTS.voiceUnreachable);
      }
    }
    return player;
  }

  /** Joins (or moves to) a channel and hands the connection to the player. */
  private async connect(
    bot: MusicBot,
    guildId: string,
    player: GuildPlayer,
    channel: { id: string; name: string },
  ): Promise<void> {
    // Already loaded (the running bot imports it); awaited before the join, so nothing runs between the
    // join and the attach.
    const { VoiceConnectionStatus } = await import('@discordjs/voice');
    // The guild's warm ffmpeg starts during the voice handshake, so the first song does not start one cold.
    this.e.warm?.hold(player);
    let connection: Awaited<ReturnType<MusicBot['join']>>;
    try {
      connection = await bot.join(guildId, channel.id);
    } catch (err) {
      if (!player.channel) this.e.warm?.release(player);
      throw err;
    }
    const fresh = !player.isAttachedTo(connection); // a move keeps the same connection
    player.attach(connection, channel);
    if (fresh)
      connection.on('stateChange', (_before, after) => {
        // Gone for good (left, kicked, or no reconnect): the song stops and the status says so.
        if (after.status !== VoiceConnectionStatus.Destroyed || !player.isAttachedTo(connection)) return;
        player.stop();
        player.detach();
        this.changed(guildId);
      });
  }

  private changed(guildId: string): void {
    if (this.closing || this.restoring.has(guildId)) return;
    const status = this.status(guildId);
    this.e.publish(status);
    this.reviewIdle(guildId, status);
    const player = this.players.get(guildId);
    if (player && this.e.store) void this.e.store.save(guildId, () => player.snapshot());
  }

  /**
   * Starts the leave timer while the bot sits alone or idle in a channel, or holds a paused song (after
   * a much longer time: a pause is not idle); stops it otherwise.
   */
  private reviewIdle(guildId: string, status: PlaybackStatus): void {
    const current = this.idleTimers.get(guildId);
    const kind = !status.voiceChannel
      ? null
      : status.idle
        ? 'idle'
        : status.state === 'paused'
          ? 'paused'
          : null;
    if (current && current.kind === kind) return;
    if (current) clearTimeout(current.timer);
    this.idleTimers.delete(guildId);
    if (!kind) return;
    const ms = kind === 'idle' ? this.e.idleLeaveMs : (this.e.pausedLeaveMs ?? MUSIC_PAUSED_LEAVE_MS);
    const timer = setTimeout(() => {
      this.idleTimers.delete(guildId);
      const player = this.players.get(guildId);
      if (!player) return;
      this.e.log.info({ guildId, kind }, 'music: leaving an idle voice channel');
      player.stop();
      player.detach();
      this.e.bot?.leave(guildId);
      this.changed(guildId);
    }, ms);
    timer.unref();
    this.idleTimers.set(guildId, { timer, kind });
  }
}

/** The songs of a list not playing or queued yet, each once (the no-duplicates rule). */
function withoutDuplicates(songs: SearchResult[], player: GuildPlayer): SearchResult[] {
  const seen = new Set<string>();
  return songs.filter((s) => {
    const key = songKey(s);
    if (seen.has(key) || player.holds(s)) return false;
    seen.add(key);
    return true;
  });
}

/** More than half of the humans in the channel. */
export function skipVotesNeeded(humans: number): number {
  return Math.floor(humans / 2) + 1;
}

function secondsSince(at: number): number {
  return Math.max(0, Math.round((Date.now() - at) / 1000));
}
