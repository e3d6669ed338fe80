import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import type {
  MusicBotLeaseTable,
  MusicGuildSettingsTable,
  MusicGuildStateTable,
  MusicPlaylistSongsTable,
  MusicPlaylistsTable,
} from './tables.ts';

/** Kysely queries of the music feature (playlists); the rules are in playlists.ts. */

export type PlaylistRow = MusicPlaylistsTable & {
  creator_username: string | null;
  creator_global_name: string | null;
  song_count: number | string | bigint | null;
};

function playlistsWithCounts(db: Db) {
  return db
    .selectFrom('music_playlists')
    .leftJoin('users', 'users.discord_id', 'music_playlists.created_by')
    .selectAll('music_playlists')
    .select(['users.username as creator_username', 'users.global_name as creator_global_name'])
    .select((eb) =>
      eb
        .selectFrom('music_playlist_songs')
        .select(eb.fn.countAll().as('n'))
        .whereRef('music_playlist_songs.playlist_id', '=', 'music_playlists.id')
        .as('song_count'),
    );
}

/**
 * One page of a guild's playlists the viewer may see (public ones and their own), newest change first;
 * `after` is the last row of the previous page (updated_at, id).
 */
export async function listVisiblePlaylists(
  db: Db,
  guildId: string,
  viewerId: string,
  page: { limit: number; after: { updatedAt: string; id: string } | null },
): Promise<PlaylistRow[]> {
  let q = playlistsWithCounts(db)
    .where('music_playlists.guild_id', '=', guildId)
    .where((eb) =>
      eb.or([eb('music_playlists.is_public', '=', 1), eb('music_playlists.created_by', '=', viewerId)]),
    );
  const after = page.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('music_playlists.updated_at', '<', after.updatedAt),
        eb.and([
          eb('music_playlists.updated_at', '=', after.updatedAt),
          eb('music_playlists.id', '>', after.id),
        ]),
      ]),
    );
  }
  return q
    .orderBy('music_playlists.updated_at', 'desc')
    .orderBy('music_playlists.id')
    .limit(page.limit)
    .execute();
}

type Trx = Transaction<Database>;

/**
 * Serialises the transactions that check and then use one allowance (a member's playlists on a guild, one
 * playlist's songs), so the count a transaction read still holds when it inserts. PostgreSQL: a
 * transaction-scoped advisory lock on the key (under READ COMMITTED a count does not see another
 * transaction's uncommitted insert, so two could each read 99 and both insert). SQLite: nothing to add —
 * the process has one connection and a transaction holds it, so the count and the insert run with no
 * other statement between them.
 */
async function lockAllowance(trx: Trx, key: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}

/**
 * Inserts a playlist unless its creator already has `max` on the guild; false when full. The count and
 * the insert are one step on both databases (see lockAllowance), so parallel creates never pass the cap.
 */
export async function insertPlaylistWithin(db: Db, row: MusicPlaylistsTable, max: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockAllowance(trx, `music_playlists:${row.guild_id}:${row.created_by}`);
    if ((await countOwnPlaylists(trx, row.guild_id, row.created_by)) >= max) return false;
    await trx.insertInto('music_playlists').values(row).execute();
    return true;
  });
}

/**
 * Adds a song at the end of a playlist unless it holds `max` already: 'full', 'duplicate' (the unique
 * index decides), or the row inserted with its position. Count, position and insert are one step.
 */
export async function insertPlaylistSongWithin(
  db: Db,
  row: Omit<MusicPlaylistSongsTable, 'position'>,
  max: number,
): Promise<'full' | 'duplicate' | MusicPlaylistSongsTable> {
  return db.transaction().execute(async (trx) => {
    await lockAllowance(trx, `music_playlist_songs:${row.playlist_id}`);
    if ((await countPlaylistSongs(trx, row.playlist_id)) >= max) return 'full';
    const full = { ...row, position: await nextSongPosition(trx, row.playlist_id) };
    return (await insertPlaylistSong(trx, full)) ? full : 'duplicate';
  });
}

/** How many playlists a member has on a guild (the per-member cap). */
export async function countOwnPlaylists(db: Db | Trx, guildId: string, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('music_playlists')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('guild_id', '=', guildId)
    .where('created_by', '=', creatorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findGuildSettings(
  db: Db,
  guildId: string,
): Promise<MusicGuildSettingsTable | undefined> {
  return db.selectFrom('music_guild_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
}

export async function saveGuildSettings(db: Db, row: MusicGuildSettingsTable): Promise<void> {
  await db
    .insertInto('music_guild_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('guild_id').doUpdateSet({
        volume: row.volume,
        normalize: row.normalize,
        loop: row.loop,
        fair_queue: row.fair_queue,
        no_duplicates: row.no_duplicates,
        autoplay: row.autoplay,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function findPlaylist(db: Db, id: string): Promise<PlaylistRow | undefined> {
  return playlistsWithCounts(db).where('music_playlists.id', '=', id).executeTakeFirst();
}

export async function insertPlaylist(db: Db, row: MusicPlaylistsTable): Promise<void> {
  await db.insertInto('music_playlists').values(row).execute();
}

export async function updatePlaylist(
  db: Db,
  id: string,
  patch: Partial<Pick<MusicPlaylistsTable, 'is_public' | 'name' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('music_playlists').set(patch).where('id', '=', id).execute();
}

export async function deletePlaylist(db: Db, id: string): Promise<void> {
  await db.deleteFrom('music_playlists').where('id', '=', id).execute();
}

export async function listPlaylistSongs(db: Db, playlistId: string): Promise<MusicPlaylistSongsTable[]> {
  return db
    .selectFrom('music_playlist_songs')
    .selectAll()
    .where('playlist_id', '=', playlistId)
    .orderBy('position')
    .orderBy('added_at')
    .execute();
}

export async function countPlaylistSongs(db: Db | Trx, playlistId: string): Promise<number> {
  const row = await db
    .selectFrom('music_playlist_songs')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('position').as('last')])
    .where('playlist_id', '=', playlistId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function nextSongPosition(db: Db | Trx, playlistId: string): Promise<number> {
  const row = await db
    .selectFrom('music_playlist_songs')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('playlist_id', '=', playlistId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** Inserts a song; false when the playlist already holds it (the unique index decides, race-free). */
export async function insertPlaylistSong(db: Db | Trx, row: MusicPlaylistSongsTable): Promise<boolean> {
  const result = await db
    .insertInto('music_playlist_songs')
    .values(row)
    .onConflict((oc) => oc.columns(['playlist_id', 'platform', 'song_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deletePlaylistSong(db: Db, playlistId: string, songId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('music_playlist_songs')
    .where('playlist_id', '=', playlistId)
    .where('id', '=', songId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/* The lease on the Discord bot and each server's stored playback (issue 42; the rules are in lease.ts and
 * playback-store.ts). Timestamps are ISO-8601 text, which compares in time order. */

/** Whether the lease row exists at all (the first instance ever makes it). */
export async function insertLeaseIfAbsent(db: Db, row: MusicBotLeaseTable): Promise<boolean> {
  const result = await db
    .insertInto('music_bot_lease')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Takes a lease that ran out (or was released) for `holder`, with the next epoch; false when it is still
 * held. On PostgreSQL two instances racing for it are serialised by the row lock, and the second one's
 * condition is checked again against the first one's row, so only one takes it.
 */
export async function takeExpiredLease(
  db: Db,
  name: string,
  holder: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('music_bot_lease')
    .set({ holder, epoch: sql`epoch + 1`, expires_at: expiresAt, acquired_at: now })
    .where('name', '=', name)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Extends the lease while `holder` still holds it at `epoch`; false when another instance took it. */
export async function renewLease(
  db: Db,
  name: string,
  holder: string,
  epoch: number,
  expiresAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('music_bot_lease')
    .set({ expires_at: expiresAt })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .where('epoch', '=', epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends the lease at once (a graceful stop), if `holder` still holds it at `epoch`. */
export async function releaseLease(
  db: Db,
  name: string,
  holder: string,
  epoch: number,
  expiredAt: string,
): Promise<void> {
  await db
    .updateTable('music_bot_lease')
    .set({ expires_at: expiredAt })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .where('epoch', '=', epoch)
    .execute();
}

export async function findLease(db: Db, name: string): Promise<MusicBotLeaseTable | undefined> {
  return db.selectFrom('music_bot_lease').selectAll().where('name', '=', name).executeTakeFirst();
}

/**
 * Stores a server's playback, unless a holder with a newer epoch already wrote it (fencing: an instance
 * that lost the lease without knowing it cannot overwrite the new holder's state).
 */
export async function saveGuildState(db: Db, row: MusicGuildStateTable): Promise<void> {
  const { guild_id: _id, ...rest } = row;
  await db
    .insertInto('music_guild_state')
    .values(row)
    .onConflict((oc) =>
      oc.column('guild_id').doUpdateSet(rest).where('music_guild_state.epoch', '<=', row.epoch),
    )
    .execute();
}

/** Stores the song's position (every few seconds while it plays), under the same fencing. */
export async function saveGuildPosition(
  db: Db,
  guildId: string,
  epoch: number,
  position: number,
  updatedAt: string,
): Promise<void> {
  await db
    .updateTable('music_guild_state')
    .set({ position, updated_at: updatedAt, epoch })
    .where('guild_id', '=', guildId)
    .where('epoch', '<=', epoch)
    .execute();
}

export async function listGuildStates(db: Db): Promise<MusicGuildStateTable[]> {
  return db.selectFrom('music_guild_state').selectAll().execute();
}

export async function findGuildState(db: Db, guildId: string): Promise<MusicGuildStateTable | undefined> {
  return db.selectFrom('music_guild_state').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
}
