import { MUSIC_ROOM_TYPE, MUSIC_STATUS_EVENT, musicRoom } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.ts';
import { createBlobStore } from '../../platform/blob-store/index.ts';
import type { MusicBot } from './bot.ts';
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

/**
 * The music feature: the Discord bot (when DISCORD_BOT_TOKEN is set), the players, the sources and
 * every /api/music route. Without a token, or while the bot logs in, the API answers that it is offline.
 */
export function musicFeature(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const c = deps.config.music;
    const store = createBlobStore(deps.config);
    const loopback = new LibraryLoopback(deps.db, store, app.log);
    const engine: MusicEngine = {
      log: app.log,
      ffmpegPath: c.ffmpegPath,
      bot: null,
      sources: [
        youtubeSource(c.youtubeBaseUrl),
        soundcloudSource(c.soundcloudApiUrl, c.soundcloudClientId),
        librarySource(deps.db, loopback, c.ffprobePath),
      ],
      publish: (status) => app.realtime.publish(musicRoom(status.guildId), MUSIC_STATUS_EVENT, { status }),
      defaultGuildId: c.defaultGuildId ?? null,
      idleLeaveMs: c.idleLeaveMs,
      settings: {
        async load(guildId) {
          const row = await findGuildSettings(deps.db, guildId);
          return row
            ? { volume: Number(row.volume), normalize: Number(row.normalize) === 1, loop: row.loop }
            : { ...DEFAULT_SETTINGS };
        },
        save: (guildId, s) =>
          saveGuildSettings(deps.db, {
            guild_id: guildId,
            volume: s.volume,
            normalize: s.normalize ? 1 : 0,
            loop: s.loop,
            updated_at: new Date().toISOString(),
          }),
      },
      loudness: new LoudnessCache(c.ffmpegPath),
    };
    const music = new MusicService(engine);
    app.realtime.defineRoomType(MUSIC_ROOM_TYPE, musicRoomType(music));
    await app.register(musicRoutes(deps.db, music));

    let starting: Promise<MusicBot | null> = Promise.resolve(null);
    let loginError: string | null = null;
    let closing = false;
    let retry: NodeJS.Timeout | null = null;
    if (c.botToken) {
      const token = c.botToken;
      // Optional: a music outage degrades /readyz without failing it (the operator's details are there).
      app.readiness.add('music', () => music.readiness(true, () => loginError), { optional: true });
      /** Logs in; on failure (Discord down or refusing) tries again after 5 s, doubling up to 2 minutes. */
      const login = (attempt: number) => {
        // discord.js (~15 MB of heap) loads only for a configured bot.
        starting = import('./bot.ts')
          .then(({ startMusicBot }) => startMusicBot({ token, apiUrl: c.discordApiUrl, log: app.log }))
          .then(async (bot) => {
            if (closing) {
              await bot.destroy();
              return null;
            }
            loginError = null;
            engine.bot = bot;
            music.attachBot(bot);
            return bot;
          })
          .catch((err: unknown) => {
            loginError = err instanceof Error ? err.message : String(err);
            const delay = Math.min(120_000, 5_000 * 2 ** Math.min(5, attempt));
            app.log.error(
              { err, retryInMs: delay },
              'music bot: could not log in to Discord; music stays offline until it can',
            );
            if (!closing) {
              retry = setTimeout(() => login(attempt + 1), delay);
              retry.unref();
            }
            return null;
          });
      };
      // In the background: a slow or refused Discord login must not keep the portal from starting.
      app.addHook('onReady', async () => login(0));
    } else {
      app.log.info('music: DISCORD_BOT_TOKEN is not set, the music bot stays offline');
    }
    app.addHook('onClose', async () => {
      closing = true;
      if (retry) clearTimeout(retry);
      await starting;
      await music.close();
      await loopback.close();
    });
  };
}
