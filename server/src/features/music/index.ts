import { MUSIC_ROOM_TYPE, MUSIC_STATUS_EVENT, musicRoom } from '@guildhall/common';
import { defineFeature } from '../../platform/feature.ts';
import type { MusicBot } from './bot.ts';
import type { MusicConfig } from './config.ts';
import { LoudnessCache } from './loudness.ts';
import { DEFAULT_SETTINGS } from './present.ts';
import { findGuildSettings, saveGuildSettings } from './repo.ts';
import { musicRoom as musicRoomType } from './room.ts';
import { musicRoutes } from './routes.ts';
import { type MusicEngine, MusicService } from './service.ts';
import { librarySource } from './sources/library.ts';
import { LibraryLoopback } from './sources/loopback.ts';
import { soundcloudSource } from './sources/soundcloud.ts';
import { youtubeSource } from './sources/youtube.ts';

type MusicState = {
  music: MusicService;
  engine: MusicEngine;
  loopback: LibraryLoopback;
  starting: Promise<MusicBot | null>;
  /** Why the last login failed (for /readyz and the logs; members see member-facing wording). */
  loginError: string | null;
  closing: boolean;
  retry: NodeJS.Timeout | null;
};

/**
 * The music feature: the Discord bot (when DISCORD_BOT_TOKEN is set), the players, the sources and
 * every /api/music route. Without a token, or while the bot logs in, the API answers that it is offline.
 * Library songs are read from the platform's one blob store.
 */
/** The bot's encoder arguments (the container test runs them with the image's own ffmpeg). */
export { encoderArgs } from './ffmpeg.ts';

export const musicFeature = defineFeature<MusicState, MusicConfig>({
  name: 'music',
  config: (c) => c.music,
  setup: ({ db, config, log, publish, blobStore, readiness, processes }) => {
    const c = config;
    const loopback = new LibraryLoopback(db, blobStore, log);
    const engine: MusicEngine = {
      log,
      ffmpegPath: c.ffmpegPath,
      processes,
      bot: null,
      sources: [
        youtubeSource(c.youtubeBaseUrl),
        soundcloudSource(c.soundcloudApiUrl, c.soundcloudClientId),
        librarySource(db, loopback, c.ffprobePath, processes),
      ],
      publish: (status) => publish(musicRoom(status.guildId), MUSIC_STATUS_EVENT, { status }),
      defaultGuildId: c.defaultGuildId ?? null,
      idleLeaveMs: c.idleLeaveMs,
      settings: {
        async load(guildId) {
          const row = await findGuildSettings(db, guildId);
          return row
            ? { volume: Number(row.volume), normalize: Number(row.normalize) === 1, loop: row.loop }
            : { ...DEFAULT_SETTINGS };
        },
        save: (guildId, s) =>
          saveGuildSettings(db, {
            guild_id: guildId,
            volume: s.volume,
            normalize: s.normalize ? 1 : 0,
            loop: s.loop,
            updated_at: new Date().toISOString(),
          }),
      },
      loudness: new LoudnessCache(c.ffmpegPath, processes),
    };
    const state: MusicState = {
      music: new MusicService(engine),
      engine,
      loopback,
      starting: Promise.resolve(null),
      loginError: null,
      closing: false,
      retry: null,
    };
    if (c.botToken) {
      // Optional: a music outage degrades /readyz without failing it (the operator's details are there).
      readiness.add('music', () => state.music.readiness(true, () => state.loginError), { optional: true });
    }
    return state;
  },
  rooms: (_ctx, { music }) => ({ [MUSIC_ROOM_TYPE]: musicRoomType(music) }),
  routes: ({ db }, { music }) => musicRoutes(db, music),
  start: ({ config, log, processes }, state) => {
    const c = config;
    if (!c.botToken) {
      log.info('music: DISCORD_BOT_TOKEN is not set, the music bot stays offline');
      return;
    }
    processes.warmUp(); // the first song does not wait for the spawner's helper to start
    const token = c.botToken;
    /** Logs in; on failure (Discord down or refusing) tries again after 5 s, doubling up to 2 minutes. */
    const login = (attempt: number) => {
      // discord.js (~15 MB of heap) loads only for a configured bot.
      state.starting = import('./bot.ts')
        .then(({ startMusicBot }) => startMusicBot({ token, apiUrl: c.discordApiUrl, log }))
        .then(async (bot) => {
          if (state.closing) {
            await bot.destroy();
            return null;
          }
          state.loginError = null;
          state.engine.bot = bot;
          state.music.attachBot(bot);
          return bot;
        })
        .catch((err: unknown) => {
          state.loginError = err instanceof Error ? err.message : String(err);
          const delay = Math.min(120_000, 5_000 * 2 ** Math.min(5, attempt));
          log.error(
            { err, retryInMs: delay },
            'music bot: could not log in to Discord; music stays offline until it can',
          );
          if (!state.closing) {
            state.retry = setTimeout(() => login(attempt + 1), delay);
            state.retry.unref();
          }
          return null;
        });
    };
    // In the background: a slow or refused Discord login must not keep the portal from starting.
    login(0);
  },
  stop: async (_ctx, state) => {
    state.closing = true;
    if (state.retry) clearTimeout(state.retry);
    await state.starting;
    await state.music.close();
    await state.loopback.close();
  },
});
