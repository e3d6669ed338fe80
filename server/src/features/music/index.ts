import { MUSIC_ROOM_TYPE, MUSIC_STATUS_EVENT, musicRoom } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.ts';
import { createBlobStore } from '../../platform/blob-store/index.ts';
import type { MusicBot } from './bot.ts';
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
        librarySource(deps.db, loopback, c.ffprobePath, c.ffmpegPath),
      ],
      publish: (status) => app.realtime.publish(musicRoom(status.guildId), MUSIC_STATUS_EVENT, { status }),
      defaultGuildId: c.defaultGuildId ?? null,
      idleLeaveMs: c.idleLeaveMs,
    };
    const music = new MusicService(engine);
    app.realtime.defineRoomType(MUSIC_ROOM_TYPE, musicRoomType(music));
    await app.register(musicRoutes(deps.db, music));

    let starting: Promise<MusicBot | null> = Promise.resolve(null);
    if (c.botToken) {
      const token = c.botToken;
      app.addHook('onReady', async () => {
        // In the background: a slow or refused Discord login must not keep the portal from starting.
        // discord.js (~15 MB of heap) loads only for a configured bot.
        starting = import('./bot.ts')
          .then(({ startMusicBot }) => startMusicBot({ token, apiUrl: c.discordApiUrl, log: app.log }))
          .then((bot) => {
            engine.bot = bot;
            music.attachBot(bot);
            return bot;
          })
          .catch((err: unknown) => {
            app.log.error({ err }, 'music bot: could not log in to Discord; music stays offline');
            return null;
          });
      });
    } else {
      app.log.info('music: DISCORD_BOT_TOKEN is not set, the music bot stays offline');
    }
    app.addHook('onClose', async () => {
      await starting;
      await music.close();
      await loopback.close();
    });
  };
}
