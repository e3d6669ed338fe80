import { randomUUID } from 'node:crypto';
import { VoiceConnectionStatus } from '@discordjs/voice';
import {
  type EqSettings,
  MUSIC_PLATFORM_LABELS,
  MUSIC_QUEUE_MAX,
  MUSIC_TEXTS,
  type MusicEffect,
  type MusicPlatform,
  type PlatformHealth,
  type PlaybackStatus,
  type SearchResult,
  type Song,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { UsersTable } from '../../db/schema.ts';
import { httpError } from '../../platform/errors.ts';
import type { MusicBot } from './bot.ts';
import { GuildPlayer } from './player.ts';
import { emptyStatus, presentStatus, requesterOf } from './present.ts';
import type { MusicSource } from './sources/types.ts';

export type MusicEngine = {
  log: FastifyBaseLogger;
  ffmpegPath: string;
  bot: MusicBot | null;
  sources: MusicSource[];
  publish: (status: PlaybackStatus) => void;
  defaultGuildId: string | null;
  /** How long the bot stays in a channel alone or with nothing to play (MUSIC_IDLE_LEAVE_SECONDS). */
  idleLeaveMs: number;
};

/**
 * The playback rules: who may play, where the bot goes, one GuildPlayer per guild, pushes on every
 * change, and leaving a channel after MUSIC_IDLE_LEAVE_MS alone or idle.
 */
export class MusicService {
  private readonly players = new Map<string, GuildPlayer>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();

  private readonly e: MusicEngine;

  constructor(e: MusicEngine) {
    this.e = e;
    if (e.bot) this.attachBot(e.bot);
  }

  /** Follows voice-state changes (listeners joining or leaving) once the bot is online. */
  attachBot(bot: MusicBot): void {
    this.e.bot = bot;
    bot.onVoiceStateChange((c) => {
      if (this.players.has(c.guildId)) this.changed(c.guildId);
    });
  }

  get online(): boolean {
    return this.e.bot?.isReady() ?? false;
  }

  guilds() {
    return { guilds: this.e.bot?.guilds() ?? [], defaultGuildId: this.e.defaultGuildId };
  }

  status(guildId: string): PlaybackStatus {
    const bot = this.e.bot;
    const player = this.players.get(guildId);
    if (!bot || !player) return emptyStatus(guildId, this.online);
    const listeners = player.channel ? bot.listeners(guildId, player.channel.id) : 0;
    return presentStatus(guildId, player, listeners);
  }

  async platforms(): Promise<PlatformHealth[]> {
    return Promise.all(
      this.e.sources.map(async (s) => {
        const h = await s.health().catch((err: Error) => ({ available: false, reason: err.message }));
        return {
          platform: s.platform,
          name: MUSIC_PLATFORM_LABELS[s.platform],
          available: h.available,
          reason: h.reason,
          checkedAt: new Date().toISOString(),
        };
      }),
    );
  }

  async search(query: string, maxResults: number, platform: MusicPlatform): Promise<SearchResult[]> {
    const source = this.source(platform);
    try {
      return await source.search(query, maxResults);
    } catch (err) {
      this.e.log.warn({ err: (err as Error).message, platform }, 'music: search failed');
      throw httpError(502, `${MUSIC_TEXTS.searchFailed}: ${(err as Error).message}`, 'PLATFORM_UNAVAILABLE');
    }
  }

  /** Plays or queues a song for the caller, joining the caller's voice channel when needed. */
  async play(caller: UsersTable, guildId: string, url: string, userId?: string) {
    const bot = this.requireGuild(guildId);
    const channel = this.requireVoice(caller, guildId, userId);
    const source = this.e.sources.find((s) => s.owns(url));
    if (!source) throw httpError(400, MUSIC_TEXTS.unsupportedUrl, 'UNSUPPORTED_URL');
    const found = await source.resolve(url).catch((err: Error) => {
      throw httpError(502, `${MUSIC_TEXTS.platformUnavailable}: ${err.message}`, 'PLATFORM_UNAVAILABLE');
    });
    if (!found) throw httpError(404, MUSIC_TEXTS.songNotFound, 'SONG_NOT_FOUND');
    const player = await this.playerIn(bot, guildId, channel);
    if (player.queue.length >= MUSIC_QUEUE_MAX) throw httpError(409, MUSIC_TEXTS.queueFull, 'QUEUE_FULL');
    const song: Song = { ...found, entryId: randomUUID(), requestedBy: requesterOf(caller) };
    const action = await player.add(song);
    if (action === 'playing' && player.current?.entryId !== song.entryId) {
      // ffmpeg could not start on it (an expired or refused stream): say so rather than "playing".
      throw httpError(
        502,
        `${MUSIC_TEXTS.playFailed}: the platform did not deliver the audio`,
        'PLAY_FAILED',
      );
    }
    return {
      song,
      action,
      position: action === 'queued' ? player.queue.length - 1 : null,
      status: this.status(guildId),
    };
  }

  /** Plays (replacing the queue) or queues many songs at once: a playlist. */
  async playMany(
    caller: UsersTable,
    guildId: string,
    songs: SearchResult[],
    clearQueue: boolean,
  ): Promise<{ added: number; action: 'playing' | 'queued'; status: PlaybackStatus }> {
    const bot = this.requireGuild(guildId);
    const channel = this.requireVoice(caller, guildId);
    const player = await this.playerIn(bot, guildId, channel);
    const entries = songs.map((s) => ({ ...s, entryId: randomUUID(), requestedBy: requesterOf(caller) }));
    if (clearQueue) player.queue = [];
    const room = MUSIC_QUEUE_MAX - player.queue.length;
    const taken = entries.slice(0, Math.max(0, room));
    if (taken.length === 0) throw httpError(409, MUSIC_TEXTS.queueFull, 'QUEUE_FULL');
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
    return { added: taken.length, action, status: this.status(guildId) };
  }

  async control(
    guildId: string,
    action: 'pause' | 'resume' | 'skip' | 'stop' | 'restart' | 'clearQueue',
  ): Promise<{ message: string; status: PlaybackStatus }> {
    const player = this.requirePlayer(guildId);
    const needsSong = action !== 'clearQueue';
    if (needsSong && !player.current) throw httpError(409, MUSIC_TEXTS.nothingPlaying, 'NOTHING_PLAYING');
    const messages = {
      pause: 'Paused',
      resume: 'Resumed',
      skip: 'Skipped',
      stop: 'Stopped',
      restart: 'Restarted',
      clearQueue: 'Queue cleared',
    } as const;
    if (action === 'pause') player.pause();
    else if (action === 'resume') await player.resume();
    else if (action === 'skip') await player.skip();
    else if (action === 'stop') player.stop();
    else if (action === 'restart') await player.seek(0);
    else player.clearQueue();
    return { message: messages[action], status: this.status(guildId) };
  }

  async reorder(guildId: string, from: number, to: number) {
    const player = this.requirePlayer(guildId);
    if (from >= player.queue.length || to >= player.queue.length) {
      throw httpError(400, MUSIC_TEXTS.indexOutOfRange, 'INDEX_OUT_OF_RANGE');
    }
    player.reorder(from, to);
    return { message: 'Queue reordered', status: this.status(guildId) };
  }

  async seek(guildId: string, seconds: number) {
    const player = this.requireSong(guildId);
    await player.seek(seconds);
    return { message: 'Seeked', status: this.status(guildId) };
  }

  async setEffects(guildId: string, effects: MusicEffect[]) {
    const player = this.requireSong(guildId);
    await player.setEffects(effects);
    return { message: 'Effects applied', status: this.status(guildId) };
  }

  async setEq(guildId: string, eq: EqSettings) {
    const player = this.requireSong(guildId);
    await player.setEq(eq);
    return { message: 'Equalizer applied', status: this.status(guildId) };
  }

  /** The source that owns a song url (for playlists), or null. */
  platformOf(url: string): MusicPlatform | null {
    return this.e.sources.find((s) => s.owns(url))?.platform ?? null;
  }

  async close(): Promise<void> {
    for (const t of this.idleTimers.values()) clearTimeout(t);
    for (const p of this.players.values()) p.destroy();
    this.players.clear();
    await this.e.bot?.destroy();
  }

  private source(platform: MusicPlatform): MusicSource {
    const s = this.e.sources.find((x) => x.platform === platform);
    if (!s) throw httpError(400, MUSIC_TEXTS.platformUnavailable, 'PLATFORM_UNAVAILABLE');
    return s;
  }

  private requireBot(): MusicBot {
    const bot = this.e.bot;
    if (!bot?.isReady()) throw httpError(503, MUSIC_TEXTS.botOffline, 'BOT_OFFLINE');
    return bot;
  }

  private requireGuild(guildId: string): MusicBot {
    const bot = this.requireBot();
    if (!bot.hasGuild(guildId)) throw httpError(404, MUSIC_TEXTS.guildNotFound, 'GUILD_NOT_FOUND');
    return bot;
  }

  private requirePlayer(guildId: string): GuildPlayer {
    this.requireGuild(guildId);
    const player = this.players.get(guildId);
    if (!player) throw httpError(409, MUSIC_TEXTS.nothingPlaying, 'NOTHING_PLAYING');
    return player;
  }

  private requireSong(guildId: string): GuildPlayer {
    const player = this.requirePlayer(guildId);
    if (!player.current) throw httpError(409, MUSIC_TEXTS.nothingPlaying, 'NOTHING_PLAYING');
    return player;
  }

  /** The caller must be a Discord identity, act as themselves, and sit in a voice channel of the guild. */
  private requireVoice(caller: UsersTable, guildId: string, userId?: string) {
    if (caller.provider !== 'discord')
      throw httpError(400, MUSIC_TEXTS.discordIdMissing, 'DISCORD_ID_MISSING');
    if (userId !== undefined && userId !== caller.discord_id) {
      throw httpError(403, MUSIC_TEXTS.userIdMismatch, 'USER_ID_MISMATCH');
    }
    const channel = this.requireBot().memberChannel(guildId, caller.discord_id);
    if (!channel) throw httpError(409, MUSIC_TEXTS.notInVoice, 'NOT_IN_VOICE');
    return channel;
  }

  /**
   * The guild's player, connected: the bot joins the caller's channel when it is in none, or moves
   * there when it has nothing playing (it never pulls the music away from people listening to it).
   */
  private async playerIn(bot: MusicBot, guildId: string, channel: { id: string; name: string }) {
    let player = this.players.get(guildId);
    if (!player) {
      player = new GuildPlayer({
        ffmpegPath: this.e.ffmpegPath,
        log: this.e.log,
        inputFor: (song) => this.source(song.platform).input(song),
        changed: () => this.changed(guildId),
      });
      this.players.set(guildId, player);
    }
    if (!player.channel || (player.channel.id !== channel.id && !player.current)) {
      try {
        const connection = await bot.join(guildId, channel.id);
        const fresh = !player.isAttachedTo(connection); // a move keeps the same connection
        player.attach(connection, channel);
        const p = player;
        if (fresh)
          connection.on('stateChange', (_before, after) => {
            // Gone for good (left, kicked, or no reconnect): the song stops and the status says so.
            if (after.status !== VoiceConnectionStatus.Destroyed || !p.isAttachedTo(connection)) return;
            p.stop();
            p.detach();
            this.changed(guildId);
          });
      } catch (err) {
        this.e.log.warn({ err: (err as Error).message, guildId }, 'music: cannot join voice');
        throw httpError(
          502,
          `Could not join ${channel.name}: ${(err as Error).message}`,
          'VOICE_JOIN_FAILED',
        );
      }
    }
    return player;
  }

  private changed(guildId: string): void {
    const status = this.status(guildId);
    this.e.publish(status);
    this.reviewIdle(guildId, status);
  }

  /** Starts the leave timer while the bot sits alone or idle in a channel; stops it otherwise. */
  private reviewIdle(guildId: string, status: PlaybackStatus): void {
    const timer = this.idleTimers.get(guildId);
    if (!status.voiceChannel || !status.idle) {
      if (timer) clearTimeout(timer);
      this.idleTimers.delete(guildId);
      return;
    }
    if (timer) return;
    const t = setTimeout(() => {
      this.idleTimers.delete(guildId);
      const player = this.players.get(guildId);
      if (!player) return;
      this.e.log.info({ guildId }, 'music: leaving an idle voice channel');
      player.stop();
      player.detach();
      this.e.bot?.leave(guildId);
      this.changed(guildId);
    }, this.e.idleLeaveMs);
    t.unref();
    this.idleTimers.set(guildId, t);
  }
}
