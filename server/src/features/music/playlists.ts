import { randomUUID } from 'node:crypto';
import {
  MUSIC_TEXTS,
  PLAYLIST_MAX_SONGS,
  PLAYLISTS_PER_MEMBER_MAX,
  type Playlist,
  type PlaylistAddSongBody,
  type PlaylistWithSongs,
  type SearchResult,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { UsersTable } from '../../db/schema.ts';
import { fail } from '../../platform/errors.ts';
import type { Clock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import type { MusicCommands } from './front.ts';
import { presentPlaylist, presentPlaylistSong } from './present.ts';
import * as repo from './repo.ts';

/**
 * Playlist rules: per guild; public ones are listed for and playable by everyone, private ones only by
 * their creator; only the creator renames, deletes, edits songs or changes visibility. A private
 * playlist of someone else answers 404, so its existence is not revealed.
 */
export type PlaylistContext = { db: Db; music: MusicCommands; clock: Clock };

/** Playlists are dated by the feature's clock. */
const now = (ctx: Pick<PlaylistContext, 'clock'>) => isoOn(ctx.clock);

async function visiblePlaylist(db: Db, viewerId: string, id: string): Promise<repo.PlaylistRow> {
  const row = await repo.findPlaylist(db, id);
  if (!row || (row.is_public !== 1 && row.created_by !== viewerId)) {
    throw fail('PLAYLIST_NOT_FOUND', MUSIC_TEXTS.playlistNotFound);
  }
  return row;
}

async function ownPlaylist(db: Db, viewerId: string, id: string): Promise<repo.PlaylistRow> {
  const row = await visiblePlaylist(db, viewerId, id);
  if (row.created_by !== viewerId) throw fail('NOT_PLAYLIST_CREATOR', MUSIC_TEXTS.notPlaylistCreator);
  return row;
}

async function withSongs(db: Db, row: repo.PlaylistRow): Promise<PlaylistWithSongs> {
  const songs = await repo.listPlaylistSongs(db, row.id);
  return { ...presentPlaylist(row), songs: songs.map(presentPlaylistSong) };
}

/** A page of the playlists a member sees on a guild, and the cursor of the next page (null: the last). */
export async function listPlaylists(
  db: Db,
  viewerId: string,
  guildId: string,
  page: { cursor?: string; limit: number },
): Promise<{ playlists: Playlist[]; nextCursor: string | null }> {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  // One more than asked tells whether another page follows.
  const rows = await repo.listVisiblePlaylists(db, guildId, viewerId, { limit: page.limit + 1, after });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    playlists: shown.map(presentPlaylist),
    nextCursor: rows.length > page.limit && last ? encodeCursor(last.updated_at, last.id) : null,
  };
}

function encodeCursor(updatedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([updatedAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { updatedAt: string; id: string } {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof updatedAt === 'string' && typeof id === 'string' && updatedAt.length < 40 && id.length < 40) {
      return { updatedAt, id };
    }
  } catch {
    // falls through to the 400
  }
  throw fail('BAD_CURSOR', 'cursor is not one this server gave');
}

export async function createPlaylist(
  ctx: PlaylistContext,
  creator: UsersTable,
  guildId: string,
  name: string,
  isPublic: boolean,
): Promise<PlaylistWithSongs> {
  const { db } = ctx;
  const id = randomUUID();
  const at = now(ctx);
  const row = {
    id,
    guild_id: guildId,
    name,
    is_public: isPublic ? 1 : 0,
    created_by: creator.discord_id,
    created_at: at,
    updated_at: at,
  };
  // The cap is checked and the row inserted in one step: parallel creates cannot each pass at 99.
  if (!(await repo.insertPlaylistWithin(db, row, PLAYLISTS_PER_MEMBER_MAX))) {
    throw fail('TOO_MANY_PLAYLISTS', MUSIC_TEXTS.tooManyPlaylists);
  }
  return withSongs(db, await visiblePlaylist(db, creator.discord_id, id));
}

export async function getPlaylist(db: Db, viewerId: string, id: string): Promise<PlaylistWithSongs> {
  return withSongs(db, await visiblePlaylist(db, viewerId, id));
}

export async function deletePlaylist(db: Db, viewerId: string, id: string): Promise<void> {
  await ownPlaylist(db, viewerId, id);
  await repo.deletePlaylist(db, id);
}

export async function setVisibility(ctx: PlaylistContext, viewerId: string, id: string, isPublic: boolean) {
  const { db } = ctx;
  await ownPlaylist(db, viewerId, id);
  await repo.updatePlaylist(db, id, { is_public: isPublic ? 1 : 0, updated_at: now(ctx) });
  return getPlaylist(db, viewerId, id);
}

export async function renamePlaylist(ctx: PlaylistContext, viewerId: string, id: string, name: string) {
  const { db } = ctx;
  await ownPlaylist(db, viewerId, id);
  await repo.updatePlaylist(db, id, { name, updated_at: now(ctx) });
  return getPlaylist(db, viewerId, id);
}

export async function addSong(ctx: PlaylistContext, viewerId: string, id: string, body: PlaylistAddSongBody) {
  await ownPlaylist(ctx.db, viewerId, id);
  const info = body.songInfo;
  const platform = ctx.music.platformOf(info.url);
  if (!platform) throw fail('UNSUPPORTED_URL', MUSIC_TEXTS.unsupportedUrl);
  const row = await repo.insertPlaylistSongWithin(
    ctx.db,
    {
      id: randomUUID(),
      playlist_id: id,
      song_key: info.youtube_id,
      platform,
      title: info.title,
      uploader: info.uploader ?? '',
      duration: info.duration ?? 0,
      url: info.url,
      thumbnail: info.thumbnail ?? null,
      added_at: now(ctx),
    },
    PLAYLIST_MAX_SONGS,
  );
  if (row === 'full') throw fail('PLAYLIST_FULL', MUSIC_TEXTS.playlistFull);
  if (row === 'duplicate') throw fail('SONG_ALREADY_ADDED', MUSIC_TEXTS.songAlreadyAdded);
  await repo.updatePlaylist(ctx.db, id, { updated_at: now(ctx) });
  return {
    song: presentPlaylistSong(row),
    playlist: presentPlaylist(await visiblePlaylist(ctx.db, viewerId, id)),
  };
}

export async function removeSong(ctx: PlaylistContext, viewerId: string, id: string, songId: string) {
  const { db } = ctx;
  await ownPlaylist(db, viewerId, id);
  if (!(await repo.deletePlaylistSong(db, id, songId))) {
    throw fail('PLAYLIST_SONG_NOT_FOUND', MUSIC_TEXTS.playlistSongNotFound);
  }
  await repo.updatePlaylist(db, id, { updated_at: now(ctx) });
  return getPlaylist(db, viewerId, id);
}

/** Plays (clearQueue) or queues a playlist the caller may see, optionally shuffled. */
export async function playPlaylist(
  ctx: PlaylistContext,
  caller: UsersTable,
  id: string,
  guildId: string,
  options: { shuffle: boolean; clearQueue: boolean },
) {
  const playlist = await getPlaylist(ctx.db, caller.discord_id, id);
  if (playlist.songs.length === 0) throw fail('PLAYLIST_EMPTY', MUSIC_TEXTS.playlistEmpty);
  const songs: SearchResult[] = playlist.songs.map((s) => ({
    id: s.youtube_id,
    youtube_id: s.youtube_id,
    title: s.title,
    uploader: s.uploader,
    duration: s.duration,
    url: s.url,
    thumbnail: s.thumbnail,
    platform: s.platform,
  }));
  if (options.shuffle) shuffleInPlace(songs);
  const result = await ctx.music.playMany(caller, guildId, songs, options.clearQueue);
  const verb = options.clearQueue ? 'Playing' : 'Queued';
  return { ...result, message: `${verb} ${result.added} songs from ${playlist.name}` };
}

/** Fisher–Yates. */
function shuffleInPlace<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
