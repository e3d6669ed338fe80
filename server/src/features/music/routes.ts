import {
  ApiError,
  EffectsBody,
  EqualizerBody,
  GuildIdParams,
  LoopBody,
  MUSIC_CONTROLS_PER_MINUTE,
  MUSIC_LYRICS_PER_MINUTE,
  MUSIC_MEMBER_OPTIONS,
  MUSIC_OPTION_PATHS,
  MUSIC_READS_PER_MINUTE,
  MUSIC_SEARCHES_PER_MINUTE,
  MusicBotHolderResponse,
  MusicControlResponse,
  MusicGuildsResponse,
  MusicHistoryQuery,
  MusicHistoryResponse,
  MusicLyricsResponse,
  MusicOptionBody,
  MusicPlatformsResponse,
  MusicPlayBody,
  MusicPlayResponse,
  MusicSearchBody,
  MusicSearchResponse,
  MusicStatusResponse,
  NormalizeBody,
  PlaylistAddSongBody,
  PlaylistCreateBody,
  PlaylistDeletedResponse,
  PlaylistGuildParams,
  PlaylistIdParams,
  PlaylistPlayBody,
  PlaylistPlayResponse,
  PlaylistRenameBody,
  PlaylistResponse,
  PlaylistSongParams,
  PlaylistSongResponse,
  PlaylistsQuery,
  PlaylistsResponse,
  PlaylistVisibilityBody,
  QueueEntryParams,
  QueueReorderBody,
  SeekBody,
  VolumeBody,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { perMemberKey } from '../../platform/rate-limit/keys.ts';
import type { MusicCommands } from './front.ts';
import type { HistoryStore } from './history/store.ts';
import type { LyricsService } from './lyrics/service.ts';
import * as playlists from './playlists.ts';
import type { Caller } from './service.ts';

const BASE = '/api/music';

/** Viewers read; users and above control (portal-tools §6, issue 11). Limits count per user. */
const READ = {
  access: 'login',
  rateLimit: { max: MUSIC_READS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;
const CONTROL = {
  access: 'user',
  rateLimit: { max: MUSIC_CONTROLS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;
/** Searches reach outside services: a tighter limit. */
const SEARCH = {
  access: 'user',
  rateLimit: { max: MUSIC_SEARCHES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;

/** Lyrics reach LRCLIB (up to two requests per look): a read, with its own tighter limit. */
const LYRICS = {
  access: 'login',
  rateLimit: { max: MUSIC_LYRICS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;

const errors = {
  400: ApiError,
  401: ApiError,
  403: ApiError,
  404: ApiError,
  409: ApiError,
  502: ApiError,
  503: ApiError,
};
const responds = <T extends z.ZodType>(ok: T) => ({ 200: ok, ...errors });

export function musicRoutes(
  db: Db,
  music: MusicCommands,
  lyrics: LyricsService,
  history: HistoryStore,
  clock: Clock,
): FastifyPluginAsyncZod {
  return async (app) => {
    const me = (req: FastifyRequest) => req.auth!.user;
    const caller = (req: FastifyRequest): Caller => ({ user: req.auth!.user, level: req.auth!.level });
    const ok = <T>(data: T) => ({ success: true as const, data });
    const ctx = { db, music, clock };

    app.get(
      `${BASE}/guilds`,
      { config: READ, schema: { response: responds(MusicGuildsResponse) } },
      async () => ok(await music.guilds()),
    );

    app.get(
      `${BASE}/status/:guildId`,
      { config: READ, schema: { params: GuildIdParams, response: responds(MusicStatusResponse) } },
      async (req) => ok(await music.status(req.params.guildId)),
    );

    // Issue 48: the playing song's lyrics from LRCLIB (synced, plain, none, or could not check).
    app.get(
      `${BASE}/lyrics/:guildId`,
      { config: LYRICS, schema: { params: GuildIdParams, response: responds(MusicLyricsResponse) } },
      async (req) => {
        const { currentSong } = await music.status(req.params.guildId);
        return ok(await lyrics.forSong(req.params.guildId, currentSong, me(req).discord_id));
      },
    );

    // Issue 48: the last 200 songs played on the server, searchable (read from the database: any instance).
    app.get(
      `${BASE}/history/:guildId`,
      {
        config: READ,
        schema: {
          params: GuildIdParams,
          querystring: MusicHistoryQuery,
          response: responds(MusicHistoryResponse),
        },
      },
      async (req) => ok({ entries: await history.list(req.params.guildId, req.query.q) }),
    );

    // Issue 42: which instance holds the bot (the admin panel; /readyz says it too).
    app.get(
      `${BASE}/bot`,
      { config: { access: 'admin' }, schema: { response: responds(MusicBotHolderResponse) } },
      async () => ok(music.holder()),
    );

    // Beyond the spec's table: the Platforms panel's real health check.
    app.get(
      `${BASE}/platforms`,
      { config: READ, schema: { response: responds(MusicPlatformsResponse) } },
      async () => ok({ platforms: await music.platforms() }),
    );

    app.post(
      `${BASE}/search`,
      { config: SEARCH, schema: { body: MusicSearchBody, response: responds(MusicSearchResponse) } },
      async (req) =>
        ok({ results: await music.search(req.body.query, req.body.maxResults, req.body.platform) }),
    );

    app.post(
      `${BASE}/play`,
      { config: CONTROL, schema: { body: MusicPlayBody, response: responds(MusicPlayResponse) } },
      async (req) => ok(await music.play(me(req), req.body.guildId, req.body.url, req.body.userId)),
    );

    for (const action of ['pause', 'resume', 'skip', 'stop', 'restart'] as const) {
      app.post(
        `${BASE}/${action}/:guildId`,
        { config: CONTROL, schema: { params: GuildIdParams, response: responds(MusicControlResponse) } },
        async (req) => ok(await music.control(caller(req), req.params.guildId, action)),
      );
    }

    app.delete(
      `${BASE}/queue/:guildId`,
      { config: CONTROL, schema: { params: GuildIdParams, response: responds(MusicControlResponse) } },
      async (req) => ok(await music.control(caller(req), req.params.guildId, 'clearQueue')),
    );

    // Beyond the spec's table (issue 27): one entry out, one entry to the top, shuffle, volume, loop,
    // loudness normalisation.
    app.delete(
      `${BASE}/queue/:guildId/:entryId`,
      { config: CONTROL, schema: { params: QueueEntryParams, response: responds(MusicControlResponse) } },
      async (req) => ok(await music.removeEntry(caller(req), req.params.guildId, req.params.entryId)),
    );

    app.post(
      `${BASE}/queue/:guildId/:entryId/next`,
      { config: CONTROL, schema: { params: QueueEntryParams, response: responds(MusicControlResponse) } },
      async (req) => ok(await music.playNext(caller(req), req.params.guildId, req.params.entryId)),
    );

    app.post(
      `${BASE}/shuffle/:guildId`,
      { config: CONTROL, schema: { params: GuildIdParams, response: responds(MusicControlResponse) } },
      async (req) => ok(await music.shuffle(caller(req), req.params.guildId)),
    );

    app.post(
      `${BASE}/volume/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: VolumeBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.setVolume(caller(req), req.params.guildId, req.body.volume)),
    );

    app.post(
      `${BASE}/loop/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: LoopBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.setLoop(caller(req), req.params.guildId, req.body.mode)),
    );

    app.post(
      `${BASE}/normalize/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: NormalizeBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.setNormalize(caller(req), req.params.guildId, req.body.enabled)),
    );

    // Issue 48: the server's options. The queue rules are for moderators and above (a rule over everyone's
    // requests); autoplay for members in the bot's channel, like loop.
    for (const [option, path] of Object.entries(MUSIC_OPTION_PATHS) as [
      keyof typeof MUSIC_OPTION_PATHS,
      string,
    ][]) {
      app.post(
        `${BASE}/${path}/:guildId`,
        {
          config: { ...CONTROL, access: MUSIC_MEMBER_OPTIONS.includes(option) ? 'user' : 'moderator' },
          schema: { params: GuildIdParams, body: MusicOptionBody, response: responds(MusicControlResponse) },
        },
        async (req) => ok(await music.setOption(caller(req), req.params.guildId, option, req.body.enabled)),
      );
    }

    app.put(
      `${BASE}/queue/:guildId/reorder`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: QueueReorderBody, response: responds(MusicControlResponse) },
      },
      async (req) =>
        ok(await music.reorder(caller(req), req.params.guildId, req.body.fromIndex, req.body.toIndex)),
    );

    app.post(
      `${BASE}/seek/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: SeekBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.seek(caller(req), req.params.guildId, req.body.time)),
    );

    app.post(
      `${BASE}/effects/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: EffectsBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.setEffects(caller(req), req.params.guildId, req.body.effects)),
    );

    app.post(
      `${BASE}/equalizer/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: EqualizerBody, response: responds(MusicControlResponse) },
      },
      async (req) => ok(await music.setEq(caller(req), req.params.guildId, req.body.eq)),
    );

    app.get(
      `${BASE}/playlists/:guildId`,
      {
        config: READ,
        schema: { params: GuildIdParams, querystring: PlaylistsQuery, response: responds(PlaylistsResponse) },
      },
      async (req) => ok(await playlists.listPlaylists(db, me(req).discord_id, req.params.guildId, req.query)),
    );

    app.post(
      `${BASE}/playlists/:guildId`,
      {
        config: CONTROL,
        schema: { params: GuildIdParams, body: PlaylistCreateBody, response: responds(PlaylistResponse) },
      },
      async (req) => {
        const playlist = await playlists.createPlaylist(
          ctx,
          me(req),
          req.params.guildId,
          req.body.name,
          req.body.isPublic,
        );
        return ok({ playlist });
      },
    );

    app.get(
      `${BASE}/playlist/:id`,
      { config: READ, schema: { params: PlaylistIdParams, response: responds(PlaylistResponse) } },
      async (req) => ok({ playlist: await playlists.getPlaylist(db, me(req).discord_id, req.params.id) }),
    );

    app.delete(
      `${BASE}/playlist/:id`,
      { config: CONTROL, schema: { params: PlaylistIdParams, response: responds(PlaylistDeletedResponse) } },
      async (req) => {
        await playlists.deletePlaylist(db, me(req).discord_id, req.params.id);
        return ok({ message: 'Playlist deleted' });
      },
    );

    app.post(
      `${BASE}/playlist/:id/songs`,
      {
        config: CONTROL,
        schema: {
          params: PlaylistIdParams,
          body: PlaylistAddSongBody,
          response: responds(PlaylistSongResponse),
        },
      },
      async (req) => ok(await playlists.addSong(ctx, me(req).discord_id, req.params.id, req.body)),
    );

    app.delete(
      `${BASE}/playlist/:id/songs/:songId`,
      { config: CONTROL, schema: { params: PlaylistSongParams, response: responds(PlaylistResponse) } },
      async (req) => {
        const playlist = await playlists.removeSong(
          ctx,
          me(req).discord_id,
          req.params.id,
          req.params.songId,
        );
        return ok({ playlist });
      },
    );

    for (const [verb, clearQueue] of [
      ['play', true],
      ['queue', false],
    ] as const) {
      app.post(
        `${BASE}/playlist/:id/${verb}/:guildId`,
        {
          config: CONTROL,
          schema: {
            params: PlaylistGuildParams,
            body: PlaylistPlayBody,
            response: responds(PlaylistPlayResponse),
          },
        },
        async (req) =>
          ok(
            await playlists.playPlaylist(ctx, me(req), req.params.id, req.params.guildId, {
              shuffle: req.body.shuffle,
              clearQueue: req.body.clearQueue ?? clearQueue,
            }),
          ),
      );
    }

    // Beyond the spec's table: the creator renames a playlist.
    app.put(
      `${BASE}/playlist/:id`,
      {
        config: CONTROL,
        schema: { params: PlaylistIdParams, body: PlaylistRenameBody, response: responds(PlaylistResponse) },
      },
      async (req) => {
        const playlist = await playlists.renamePlaylist(
          ctx,
          me(req).discord_id,
          req.params.id,
          req.body.name,
        );
        return ok({ playlist });
      },
    );

    app.put(
      `${BASE}/playlist/:id/visibility`,
      {
        config: CONTROL,
        schema: {
          params: PlaylistIdParams,
          body: PlaylistVisibilityBody,
          response: responds(PlaylistResponse),
        },
      },
      async (req) => {
        const playlist = await playlists.setVisibility(
          ctx,
          me(req).discord_id,
          req.params.id,
          req.body.isPublic,
        );
        return ok({ playlist });
      },
    );
  };
}
