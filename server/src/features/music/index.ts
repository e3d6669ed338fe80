import { randomUUID } from 'node:crypto';
import os from 'node:os';
import {
  DISCORD_DEFER_AFTER_MS,
  MUSIC_FORWARD_TIMEOUT_MS,
  MUSIC_ROOM_TYPE,
  MUSIC_STATUS_EVENT,
  type MusicBotHolder,
  musicRoom,
} from '@guildhall/common';
import type { Client } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BotHolder } from '../../platform/bot-holder.ts';
import { defineFeature } from '../../platform/feature.ts';
import { createAutoplay } from './autoplay.ts';
import type { MusicBot } from './bot.ts';
import type { MusicFeatureConfig } from './config.ts';
import { DiscordSide } from './discord/index.ts';
import { withSongNotes } from './discord/song-notes.ts';
import { connectForwarder, type Forwarder } from './forward.ts';
import { HOLDER_ASK_METHOD, type MusicCommands, musicFront, serveForwarded } from './front.ts';
import { createHistoryStore, type HistoryStore } from './history/store.ts';
import { BotLease } from './lease.ts';
import { LoudnessCache } from './loudness.ts';
import { createLyricsService, type LyricsService } from './lyrics/service.ts';
import { PlaybackStore } from './playback-store.ts';
import { DEFAULT_SETTINGS } from './present.ts';
import { musicRoom as musicRoomType } from './room.ts';
import { musicRoutes } from './routes.ts';
import { type MusicEngine, MusicService } from './service.ts';
import { createSettingsStore } from './settings-store.ts';
import { librarySource } from './sources/library.ts';
import { LibraryLoopback } from './sources/loopback.ts';
import { soundcloudSource } from './sources/soundcloud.ts';
import { youtubeSource } from './sources/youtube.ts';
import { createSpotifyClient } from './spotify/client.ts';
import { withSpotify } from './spotify/play.ts';
import { WarmDecoders } from './warm-decoders.ts';

type MusicState = {
  music: MusicService;
  /** What routes, rooms and playlists call: here on the holder, forwarded to it elsewhere (issue 42). */
  front: MusicCommands;
  engine: MusicEngine;
  /** Synced lyrics of the song playing (LRCLIB, issue 48): asked from any instance, cached per track. */
  lyrics: LyricsService;
  /** What played on each server (issue 48): written by the holder, read by any instance. */
  history: HistoryStore;
  /** Slash commands, buttons and the now-playing message (issue 44): live only where the bot is logged in. */
  discord: DiscordSide;
  loopback: LibraryLoopback;
  store: PlaybackStore;
  /** Null on one SQLite process (it always holds the bot) or without a token. */
  lease: BotLease | null;
  forwarder: Forwarder | null;
  instanceId: string;
  starting: Promise<MusicBot | null>;
  /** Bumped whenever this instance stops holding the bot: a login still under way for an older turn is undone. */
  turn: number;
  /** The bot is logged in here and the stored playback restored. */
  ready: boolean;
  /** Why the last login failed (for /readyz and the logs; members see member-facing wording). */
  loginError: string | null;
  closing: boolean;
  crashed: boolean;
  /** Which instance holds the bot, and its READY/resume, for other features (role sync). */
  botHolder: BotHolder;
  /** The gateway refused the intents other features asked for (4014): logins leave them out. */
  intentsRefused: boolean;
  retry: NodeJS.Timeout | null;
};

/** Test seams of the music feature. */
export type MusicOptions = {
  /** This instance's id in the lease (default: host, process id and a random part). */
  instanceId?: string;
  /**
   * Filled by the feature: stops this instance the way kill -9 would, as far as the others can tell (the
   * lease is neither released nor renewed, nothing is stored, forwarded commands find nobody listening).
   */
  crash?: { run?: () => Promise<void> };
  /** How long a Discord command may work before it is deferred (default DISCORD_DEFER_AFTER_MS); read per command. */
  discord?: { deferAfterMs?: number };
  /** Each LRCLIB request's time limit (default MUSIC_LYRICS_TIMEOUT_MS): tests of a hanging LRCLIB. */
  lyrics?: { timeoutMs?: number };
  /** Each Spotify request's limit and matching's whole limit (defaults in common's music-spotify.ts). */
  spotify?: { timeoutMs?: number; budgetMs?: number };
};

/**
 * The music feature: the Discord bot (when DISCORD_BOT_TOKEN is set), the players, the sources and
 * every /api/music route. Without a token, or while the bot logs in, the API answers that it is offline.
 * Library songs are read from the platform's one blob store. With a shared database (PostgreSQL) a lease
 * decides which one instance logs the bot in; the others forward their members' commands to it through
 * Redis (docs/operations.md, "One music bot").
 */
/** The bot's decoder arguments (the container test runs them with the image's own ffmpeg). */
export { decoderArgs } from './ffmpeg.ts';

export const musicFeature = (options: MusicOptions = {}) =>
  defineFeature<MusicState, MusicFeatureConfig>({
    name: 'music',
    config: (c) => ({
      ...c.music,
      botToken: c.discord.botToken,
      discordApiUrl: c.discord.botApiUrl,
      defaultGuildId: c.discord.defaultGuildId,
      ffmpegPath: c.tools.ffmpegPath,
      ffprobePath: c.tools.ffprobePath,
      sharedDatabase: !c.databaseUrl.startsWith('sqlite:'),
      redisUrl: c.redisUrl,
      redisPrefix: c.redisPrefix,
      publicUrl: c.publicUrl ?? null,
    }),
    setup: ({ db, config, log, publish, blobStore, readiness, processes, clock, botHolder, outbound }) => {
      const c = config;
      const instanceId = options.instanceId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const loopback = new LibraryLoopback(db, blobStore, log, clock);
      const settings = createSettingsStore(db, clock);
      const history = createHistoryStore(db, clock, log);
      let state: MusicState;
      // One SQLite process writes as epoch 0; with a lease, only the holder writes, under its epoch.
      const store = new PlaybackStore(db, log, () => (state.lease ? state.lease.epoch : 0), clock);
      const youtube = youtubeSource(c.youtubeBaseUrl);
      const sources = [
        youtube,
        soundcloudSource(c.soundcloudApiUrl, c.soundcloudClientId),
        librarySource(db, loopback, c.ffprobePath, processes),
      ];
      const engine: MusicEngine = {
        log,
        ffmpegPath: c.ffmpegPath,
        processes,
        warm: new WarmDecoders({ ffmpegPath: c.ffmpegPath, processes, log }),
        bot: null,
        sources,
        publish: (status) => {
          publish(musicRoom(status.guildId), MUSIC_STATUS_EVENT, { status });
          state.discord.statusChanged(status);
        },
        defaultGuildId: c.defaultGuildId ?? null,
        idleLeaveMs: c.idleLeaveMs,
        settings,
        loudness: new LoudnessCache(c.ffmpegPath, processes),
        store,
        history,
        autoplay: createAutoplay({ sources, history, log, clock }),
      };
      const music = new MusicService(engine);
      const lease =
        c.botToken && c.sharedDatabase
          ? new BotLease({
              db,
              clock,
              log,
              instanceId,
              ttlMs: c.leaseTtlMs,
              onAcquired: () => hold(state, c, log),
              onLost: () => void letGo(state, log),
            })
          : null;
      const sp = c.spotify;
      const spotify =
        sp.clientId && sp.clientSecret
          ? createSpotifyClient({
              outbound,
              apiUrl: sp.apiUrl,
              accountsUrl: sp.accountsUrl,
              clientId: sp.clientId,
              clientSecret: sp.clientSecret,
              clock,
              timeoutMs: options.spotify?.timeoutMs,
            })
          : null;
      // Spotify links are read here (any instance), their matched songs queued through the holder; every
      // play asked here (panel or command) may be a channel note (issue 44).
      const front = withSongNotes(
        withSpotify(
          musicFront({
            local: music,
            log,
            instanceId,
            defaultGuildId: c.defaultGuildId ?? null,
            lease,
            forwarder: () => state.forwarder,
            store,
            isReady: () => state.ready,
            hasToken: Boolean(c.botToken),
            settings: (guildId) => settings.load(guildId).catch(() => ({ ...DEFAULT_SETTINGS })),
            clock,
          }),
          {
            client: spotify,
            searchSongs: (query, max) => youtube.searchSongs(query, max),
            clock,
            log,
            budgetMs: options.spotify?.budgetMs,
          },
        ),
        { db, log, clock },
      );
      state = {
        music,
        front,
        history,
        lyrics: createLyricsService({
          outbound,
          baseUrl: c.lyricsUrl,
          clock,
          log,
          timeoutMs: options.lyrics?.timeoutMs,
        }),
        engine,
        discord: new DiscordSide({
          db,
          music: front,
          log,
          publicUrl: c.publicUrl,
          guildId: c.defaultGuildId ?? null,
          deferAfterMs: () => options.discord?.deferAfterMs ?? DISCORD_DEFER_AFTER_MS,
          clock,
          offered: () => botHolder.offeredCommands(),
        }),
        loopback,
        store,
        lease,
        forwarder: null,
        instanceId,
        starting: Promise.resolve(null),
        turn: 0,
        ready: false,
        loginError: null,
        closing: false,
        crashed: false,
        botHolder,
        intentsRefused: false,
        retry: null,
      };
      // Role sync's reconcile runs where the bot is held: here while this instance holds the lease.
      if (lease) botHolder.leasedBy(() => lease.isHolder);
      botHolder.onRetryIntents(() => void loginAgainWithIntents(state, c, log));
      if (c.botToken) {
        // Optional: a music outage degrades /readyz without failing it (the operator's details are there).
        readiness.add(
          'music',
          async () => {
            if (lease && !state.ready) {
              const holder = lease.holder();
              if (holder && holder !== instanceId) return; // the holder reports on its own /readyz
              throw new Error('no instance holds the music bot right now (a handover is under way)');
            }
            await state.music.readiness(true, () => state.loginError);
          },
          { optional: true },
        );
        readiness.add('musicBot', async () => describeHolder(state.front.holder()), { optional: true });
      }
      if (options.crash) options.crash.run = () => crash(state);
      return state;
    },
    rooms: (_ctx, { front }) => ({ [MUSIC_ROOM_TYPE]: musicRoomType(front) }),
    routes: ({ db, clock }, { front, lyrics, history }) => musicRoutes(db, front, lyrics, history, clock),
    start: async ({ config, log, processes }, state) => {
      const c = config;
      if (!c.botToken) {
        log.info('music: DISCORD_BOT_TOKEN is not set, the music bot stays offline');
        return;
      }
      processes.warmUp(); // the first song does not wait for the spawner's helper to start
      const lease = state.lease;
      if (!lease) {
        hold(state, c, log); // one SQLite process: no lease, no forwarding
        return;
      }
      if (c.redisUrl) {
        state.forwarder = await connectForwarder({
          url: c.redisUrl,
          prefix: c.redisPrefix,
          instanceId: state.instanceId,
          log,
          timeoutMs: MUSIC_FORWARD_TIMEOUT_MS,
        }).catch((err: unknown) => {
          log.error(
            { err },
            'music: Redis unreachable; music commands cannot reach the bot on another instance',
          );
          return null;
        });
        const forwarder = state.forwarder;
        forwarder?.serve(
          serveForwarded(
            state.music,
            () => state.ready,
            (name) => state.botHolder.answerAsk(name),
          ),
        );
        // Another feature's ask of the holder (role sync's Check now) goes where the lease is.
        state.botHolder.relayAsks(async (name) => {
          const holder = lease.holder();
          if (!forwarder || !holder) throw new Error('no instance holds the bot');
          await forwarder.call(holder, HOLDER_ASK_METHOD, [name]);
        });
        // A holder that released the lease (or took it) says so: the others look at once instead of waiting.
        forwarder?.onNews(() => void lease.poke());
      } else {
        log.warn(
          'music: a shared database without REDIS_URL: only the instance holding the bot can play music',
        );
      }
      await lease.start();
    },
    stop: async (_ctx, state) => {
      if (state.crashed) return;
      state.closing = true;
      state.ready = false;
      if (state.retry) clearTimeout(state.retry);
      await state.starting;
      const held = state.lease?.isHolder ?? false;
      // Stored first (at the exact position), then the bot logs out, then the lease is handed over at once:
      // the next holder joins only after this one left the voice channel, and reads the final state.
      state.discord.detach();
      state.botHolder.botGone();
      await state.music.close({ save: true });
      await state.lease?.stop(true);
      if (held) state.forwarder?.announce({ kind: 'released', instance: state.instanceId });
      await state.forwarder?.close();
      await state.loopback.close();
    },
  });

/**
 * This instance holds the bot (or is the one process): logs it in, restores the stored playback, then
 * serves commands. A failed login tries again after 5 s, doubling up to 2 minutes.
 */
function hold(state: MusicState, c: MusicFeatureConfig, log: FastifyBaseLogger): void {
  const token = c.botToken;
  if (!token) return;
  const turn = ++state.turn;
  const stale = () => state.closing || state.turn !== turn;
  const login = (attempt: number) => {
    // discord.js (~15 MB of heap) loads only for a configured bot.
    const extraIntents = state.intentsRefused ? [] : state.botHolder.wantedIntents();
    state.starting = import('./bot.ts')
      .then(({ startMusicBot }) => startMusicBot({ token, apiUrl: c.discordApiUrl, log, extraIntents }))
      .then(async (bot) => {
        if (stale()) {
          await bot.destroy();
          return null;
        }
        state.loginError = null;
        state.music.attachBot(bot);
        state.discord.attach(bot.client);
        await state.music
          .restore(await state.store.loadAll())
          .catch((err: unknown) => log.error({ err }, 'music: could not restore the stored playback'));
        if (stale()) return bot;
        state.ready = true;
        state.forwarder?.announce({ kind: 'acquired', instance: state.instanceId });
        announceReady(state, bot.client);
        return bot;
      })
      .catch(async (err: unknown) => {
        if (extraIntents.length > 0 && (await isDisallowedIntents(err)) && !stale()) {
          // The admin has not enabled the privileged intent: the bot runs without it, at once.
          state.intentsRefused = true;
          log.warn('music bot: Discord refused the Server Members intent (4014); logging in without it');
          state.botHolder.intentsRefused();
          login(attempt);
          return null;
        }
        state.loginError = err instanceof Error ? err.message : String(err);
        const delay = Math.min(120_000, 5_000 * 2 ** Math.min(5, attempt));
        log.error(
          { err, retryInMs: delay },
          'music bot: could not log in to Discord; music stays offline until it can',
        );
        if (!stale()) {
          state.retry = setTimeout(() => login(attempt + 1), delay);
          state.retry.unref();
        }
        return null;
      });
  };
  // In the background: a slow or refused Discord login must not keep the portal from starting.
  login(0);
}

/** Tells other features the bot is ready here, now and on every resumed or new gateway session. */
function announceReady(state: MusicState, client: Client): void {
  const again = () => {
    if (!state.closing && state.ready) state.botHolder.botReady(client);
  };
  client.on('shardResume', again);
  client.on('shardReady', again);
  state.botHolder.botReady(client);
}

async function isDisallowedIntents(err: unknown): Promise<boolean> {
  const { DisallowedIntentsError } = await import('./bot.ts');
  return err instanceof DisallowedIntentsError;
}

/**
 * Role sync saw the intent Discord refused enabled in the developer portal since: the bot logs in again
 * asking for it. The playback is stored first and resumed at its position, as on a lease handover.
 */
async function loginAgainWithIntents(
  state: MusicState,
  c: MusicFeatureConfig,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!state.intentsRefused) return;
  state.intentsRefused = false;
  if (!state.ready || state.closing) return; // not logged in here: its next login asks for them anyway
  state.turn++;
  state.ready = false;
  if (state.retry) clearTimeout(state.retry);
  await state.starting;
  state.discord.detach();
  state.botHolder.botGone();
  await state.music.close({ save: true });
  if (state.closing) return;
  log.info('music bot: logging in again with the intents Discord refused before');
  hold(state, c, log);
}

/** Another instance holds the bot now: this one stops its bot at once, writing nothing (fencing). */
async function letGo(state: MusicState, log: FastifyBaseLogger): Promise<void> {
  state.turn++;
  state.ready = false;
  if (state.retry) clearTimeout(state.retry);
  await state.starting;
  state.discord.detach();
  state.botHolder.botGone();
  await state.music.close({ save: false });
  log.warn('music bot: stopped here; another instance holds the bot');
}

/** The test seam's kill -9: nothing released, stored or announced; commands find nobody listening. */
async function crash(state: MusicState): Promise<void> {
  state.crashed = true;
  state.closing = true;
  state.ready = false;
  if (state.retry) clearTimeout(state.retry);
  await state.lease?.stop(false);
  await state.forwarder?.close();
  state.forwarder = null;
  await state.starting;
  state.discord.detach();
  await state.music.close({ save: false });
  await state.loopback.close();
}

function describeHolder(h: MusicBotHolder): string {
  if (!h.holder) return `no instance holds the music bot (this is ${h.thisInstance})`;
  const where = h.holder === h.thisInstance ? 'this instance' : 'another instance';
  return h.leased
    ? `${where} holds the music bot: ${h.holder} (lease epoch ${h.epoch}, until ${h.expiresAt})`
    : `${where} holds the music bot: ${h.holder} (one process, no lease)`;
}
