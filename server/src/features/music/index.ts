import { MUSIC_ROOM_TYPE, MUSIC_STATUS_EVENT, musicRoom } from '@guildhall/common';
import { defineFeature } from '../../platform/feature.ts';
import type { MusicBot } from './bot.ts';
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
};

/**
 * The music feature: the Discord bot (when DISCORD_BOT_TOKEN is set), the players, the sources and
 * every /api/music route. Without a token, or while the bot logs in, the API answers that it is offline.
 * Library songs are read from the platform's one blob store.
 */
export const musicFeature = defineFeature<MusicState>({
  name: 'music',
  setup: ({ db, config, log, realtime, blobStore }) => {
    const c = config.music;
    const loopback = new LibraryLoopback(db, blobStore, log);
    const engine: MusicEngine = {
      log,
      ffmpegPath: c.ffmpegPath,
      bot: null,
      sources: [
        youtubeSource(c.youtubeBaseUrl),
        soundcloudSource(c.soundcloudApiUrl, c.soundcloudClientId),
        librarySource(db, loopback, c.ffprobePath, c.ffmpegPath),
      ],
      publish: (status) => realtime.publish(musicRoom(status.guildId), MUSIC_STATUS_EVENT, { status }),
      defaultGuildId: c.defaultGuildId ?? null,
      idleLeaveMs: c.idleLeaveMs,
    };
    return { music: new MusicService(engine), engine, loopback, starting: Promise.resolve(null) };
  },
  rooms: (_ctx, { music }) => ({ [MUSIC_ROOM_TYPE]: musicRoomType(music) }),
  routes: ({ db }, { music }) => musicRoutes(db, music),
  start: ({ config, log }, state) => {
    const c = config.music;
    if (!c.botToken) {
      log.info('music: DISCORD_BOT_TOKEN is not set, the music bot stays offline');
      return;
    }
    const token = c.botToken;
    // In the background: a slow or refused Discord login must not keep the portal from starting.
    // discord.js (~15 MB of heap) loads only for a configured bot.
    state.starting = import('./bot.ts')
      .then(({ startMusicBot }) => startMusicBot({ token, apiUrl: c.discordApiUrl, log }))
      .then((bot) => {
        state.engine.bot = bot;
        state.music.attachBot(bot);
        return bot;
      })
      .catch((err: unknown) => {
        log.error({ err }, 'music bot: could not log in to Discord; music stays offline');
        return null;
      });
  },
  stop: async (_ctx, state) => {
    await state.starting;
    await state.music.close();
    await state.loopback.close();
  },
});
