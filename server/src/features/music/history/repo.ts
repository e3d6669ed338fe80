import type { Db } from '../../../db/index.ts';
import type { MusicHistoryTable } from '../tables.ts';

/** Kysely queries of the music history (issue 48); the rules are in store.ts. */

/** Adds a played song and forgets the server's songs beyond the newest `keep`. */
export async function insertHistory(db: Db, row: MusicHistoryTable, keep: number): Promise<void> {
  await db.insertInto('music_history').values(row).execute();
  const newest = db
    .selectFrom('music_history')
    .select('id')
    .where('guild_id', '=', row.guild_id)
    .orderBy('played_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await db
    .deleteFrom('music_history')
    .where('guild_id', '=', row.guild_id)
    .where('id', 'not in', newest)
    .execute();
}

/** A server's history, newest first, at most `limit` rows. */
export async function listHistory(db: Db, guildId: string, limit: number): Promise<MusicHistoryTable[]> {
  return db
    .selectFrom('music_history')
    .selectAll()
    .where('guild_id', '=', guildId)
    .orderBy('played_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
