import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type {
  PictionaryChatTable,
  PictionaryGamesTable,
  PictionaryGuessesTable,
  PictionaryPlayersTable,
  PictionaryStrokesTable,
} from './tables.ts';

/** A plain connection or a transaction: every query here runs on either. */
type Conn = Kysely<Database>;

export type GameRow = PictionaryGamesTable;
/** `username`: the name everyone sees (server nickname, else global name, else username; issue 43). */
export type PlayerRow = PictionaryPlayersTable & { username: string };
export type GuessRow = PictionaryGuessesTable & { username: string };
export type GameChanges = Partial<Omit<PictionaryGamesTable, 'id' | 'version' | 'created_at'>>;

export async function findGame(db: Conn, id: string): Promise<GameRow | undefined> {
  const row = await db.selectFrom('pictionary_games').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { ...row, version: Number(row.version) };
}

/** Just what a stroke batch is checked against (the draw path runs 20 times a second per game). */
export async function findDrawState(db: Conn, id: string) {
  return db
    .selectFrom('pictionary_games')
    .select(['status', 'drawer_id', 'turn_number', 'turn_phase'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every player who ever joined, in join order, with their names (left players have `left_at`). */
export async function findPlayers(db: Conn, gameId: string): Promise<PlayerRow[]> {
  const rows = await db
    .selectFrom('pictionary_players as p')
    .innerJoin('users as u', 'u.discord_id', 'p.user_id')
    .selectAll('p')
    .select((eb) => eb.fn.coalesce('u.server_nick', 'u.global_name', 'u.username').as('username'))
    .where('p.game_id', '=', gameId)
    .orderBy('p.seq')
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), score: Number(r.score), away: Number(r.away) }));
}

export async function findGuesses(db: Conn, gameId: string, turn: number): Promise<GuessRow[]> {
  return db
    .selectFrom('pictionary_guesses as g')
    .innerJoin('users as u', 'u.discord_id', 'g.user_id')
    .selectAll('g')
    .select((eb) => eb.fn.coalesce('u.server_nick', 'u.global_name', 'u.username').as('username'))
    .where('g.game_id', '=', gameId)
    .where('g.turn_number', '=', turn)
    .orderBy('g.created_at')
    .orderBy('g.id')
    .execute();
}

export async function findSeatGameId(db: Conn, userId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom('pictionary_seats')
    .select('game_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r?.game_id;
}

/** Serializes joins for the rest of the transaction (row lock on PostgreSQL, write lock on SQLite). */
export async function lockMatchmaking(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('pictionary_matchmaking')
    .set((eb) => ({ turns: eb('turns', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/**
 * The oldest public lobby with a free place whose host was seen since `hostSeenSince` (a lobby whose host
 * closed the tab is never filled), with its highest join order so far.
 */
export async function findOpenLobby(
  db: Conn,
  hostSeenSince: string,
  userId: string,
): Promise<{ id: string; maxSeq: number } | undefined> {
  const r = await db
    .selectFrom('pictionary_games as g')
    .innerJoin('pictionary_players as p', 'p.game_id', 'g.id')
    .innerJoin('pictionary_players as h', (join) =>
      join.onRef('h.game_id', '=', 'g.id').onRef('h.user_id', '=', 'g.host_id'),
    )
    .select(['g.id', (eb) => eb.fn.max('p.seq').as('max_seq'), (eb) => eb.fn.countAll().as('n')])
    .where('g.status', '=', 'lobby')
    .where('g.is_private', '=', 0)
    .where('h.seen_at', '>=', hostSeenSince)
    .where('p.left_at', 'is', null)
    // Never back into a lobby this player was kicked from.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pictionary_kicked as k')
            .select('k.user_id')
            .whereRef('k.game_id', '=', 'g.id')
            .where('k.user_id', '=', userId),
        ),
      ),
    )
    .groupBy(['g.id', 'g.max_players', 'g.created_at'])
    .having((eb) => eb(eb.fn.countAll(), '<', eb.ref('g.max_players')))
    .orderBy('g.created_at')
    .orderBy('g.id')
    .executeTakeFirst();
  return r && { id: r.id, maxSeq: Number(r.max_seq) };
}

export async function insertGame(db: Conn, row: GameRow): Promise<void> {
  await db.insertInto('pictionary_games').values(row).execute();
}

export async function insertPlayer(db: Conn, gameId: string, userId: string, seq: number, now: string) {
  await db
    .insertInto('pictionary_players')
    .values({
      game_id: gameId,
      user_id: userId,
      seq,
      score: 0,
      joined_at: now,
      left_at: null,
      seen_at: now,
      away: 0,
    })
    .execute();
}

/** Seats a user; false when they already hold a seat in another unfinished game. */
export async function insertSeat(db: Conn, userId: string, gameId: string): Promise<boolean> {
  const r = await db
    .insertInto('pictionary_seats')
    .values({ user_id: userId, game_id: gameId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function deleteSeat(db: Conn, userId: string, gameId: string): Promise<void> {
  await db
    .deleteFrom('pictionary_seats')
    .where('user_id', '=', userId)
    .where('game_id', '=', gameId)
    .execute();
}

export async function deleteSeats(db: Conn, gameId: string): Promise<void> {
  await db.deleteFrom('pictionary_seats').where('game_id', '=', gameId).execute();
}

export async function deletePlayer(db: Conn, gameId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('pictionary_players')
    .where('game_id', '=', gameId)
    .where('user_id', '=', userId)
    .execute();
}

export async function markPlayerLeft(db: Conn, gameId: string, userId: string, now: string): Promise<void> {
  await db
    .updateTable('pictionary_players')
    .set({ left_at: now })
    .where('game_id', '=', gameId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteGame(db: Conn, gameId: string): Promise<void> {
  await db.deleteFrom('pictionary_games').where('id', '=', gameId).execute();
}

export async function addScore(db: Conn, gameId: string, userId: string, points: number): Promise<void> {
  await db
    .updateTable('pictionary_players')
    .set((eb) => ({ score: eb('score', '+', points) }))
    .where('game_id', '=', gameId)
    .where('user_id', '=', userId)
    .execute();
}

export async function insertGuess(db: Conn, row: PictionaryGuessesTable): Promise<void> {
  await db.insertInto('pictionary_guesses').values(row).execute();
}

/**
 * Applies changes only if the game is still at `version` (and bumps it). False: someone else changed the
 * game first; re-read and decide again. This is what makes guesses, leaves and turn changes race-free.
 */
export async function updateGameIfVersion(db: Conn, id: string, version: number, changes: GameChanges) {
  const r = await db
    .updateTable('pictionary_games')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertStrokes(db: Conn, row: PictionaryStrokesTable): Promise<void> {
  await db.insertInto('pictionary_strokes').values(row).execute();
}

export async function countSegments(db: Conn, gameId: string, turn: number): Promise<number> {
  const r = await db
    .selectFrom('pictionary_strokes')
    .select((eb) => eb.fn.sum<number>('segment_count').as('n'))
    .where('game_id', '=', gameId)
    .where('turn_number', '=', turn)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/**
 * The turn's log since its last clear (strokes, fills, undos), in the order it was drawn. `withSegments`
 * false leaves the segment lists out (an undo only needs which strokes there are).
 */
export async function findDrawLog(
  db: Conn,
  gameId: string,
  turn: number,
  withSegments: boolean,
): Promise<
  { kind: PictionaryStrokesTable['kind']; stroke_id: number | null; seq: number; segments: string }[]
> {
  const rows = await db
    .selectFrom('pictionary_strokes')
    .select(['kind', 'stroke_id', 'seq'])
    .$if(withSegments, (q) => q.select('segments'))
    .where('game_id', '=', gameId)
    .where('turn_number', '=', turn)
    .where('kind', '!=', 'clear')
    .where('seq', '>', (eb) =>
      eb
        .selectFrom('pictionary_strokes')
        .select((e) => e.fn.coalesce(e.fn.max('seq'), e.val(-1)).as('s'))
        .where('game_id', '=', gameId)
        .where('turn_number', '=', turn)
        .where('kind', '=', 'clear'),
    )
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    stroke_id: r.stroke_id === null ? null : Number(r.stroke_id),
    seq: Number(r.seq),
    segments: (r as { segments?: string }).segments ?? '[]',
  }));
}

/** Drops the drawing of a turn and of every turn before it (`upTo` inclusive). */
export async function deleteStrokes(db: Conn, gameId: string, upTo: number): Promise<void> {
  await db
    .deleteFrom('pictionary_strokes')
    .where('game_id', '=', gameId)
    .where('turn_number', '<=', upTo)
    .execute();
}

/** Games in progress whose phase (or next hint) is due by `now` (any instance may advance them). */
export async function findDueGameIds(db: Conn, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('pictionary_games')
    .select('id')
    .where('status', '=', 'in_progress')
    .where((eb) => eb.or([eb('turn_ends_at', '<=', now), eb('next_hint_at', '<=', now)]))
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/** Games in progress with when their phase ends (to arm this instance's timers on start). */
export async function findRunningGames(
  db: Conn,
): Promise<{ id: string; turn_ends_at: string | null; next_hint_at: string | null }[]> {
  return db
    .selectFrom('pictionary_games')
    .select(['id', 'turn_ends_at', 'next_hint_at'])
    .where('status', '=', 'in_progress')
    .execute();
}

export async function inTransaction<T>(
  db: Conn,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(work);
}

/** Notes players of a game as seen now (those still in it). */
export async function markSeen(db: Conn, gameId: string, userIds: string[], now: string): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('pictionary_players')
    .set({ seen_at: now })
    .where('game_id', '=', gameId)
    .where('user_id', 'in', userIds)
    .where('left_at', 'is', null)
    .execute();
}

/** Of the given games, the players currently counted as away (to bring back the ones seen again). */
export async function findAway(db: Conn, gameIds: string[]): Promise<{ game_id: string; user_id: string }[]> {
  if (gameIds.length === 0) return [];
  return db
    .selectFrom('pictionary_players')
    .select(['game_id', 'user_id'])
    .where('game_id', 'in', gameIds)
    .where('away', '=', 1)
    .where('left_at', 'is', null)
    .execute();
}

/** Games (open lobbies and running games) with a player not seen since `cutoff` and not yet counted away. */
export async function findGamesWithAbsentPlayers(db: Conn, cutoff: string): Promise<string[]> {
  const rows = await db
    .selectFrom('pictionary_players as p')
    .innerJoin('pictionary_games as g', 'g.id', 'p.game_id')
    .select('g.id')
    .distinct()
    .where('g.status', 'in', ['lobby', 'in_progress'])
    .where('p.left_at', 'is', null)
    .where('p.away', '=', 0)
    .where((eb) => eb.or([eb('p.seen_at', 'is', null), eb('p.seen_at', '<', cutoff)]))
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

export async function setAway(db: Conn, gameId: string, userIds: string[], away: 0 | 1): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('pictionary_players')
    .set({ away })
    .where('game_id', '=', gameId)
    .where('user_id', 'in', userIds)
    .execute();
}

export type ChatRow = PictionaryChatTable & { username: string };

export async function insertChat(db: Conn, row: PictionaryChatTable): Promise<void> {
  await db.insertInto('pictionary_chat').values(row).execute();
}

/** A turn's chat among players who guessed, oldest first. */
export async function findChat(db: Conn, gameId: string, turn: number): Promise<ChatRow[]> {
  return db
    .selectFrom('pictionary_chat as c')
    .innerJoin('users as u', 'u.discord_id', 'c.user_id')
    .selectAll('c')
    .select((eb) => eb.fn.coalesce('u.server_nick', 'u.global_name', 'u.username').as('username'))
    .where('c.game_id', '=', gameId)
    .where('c.turn_number', '=', turn)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

/** Every kick vote of a game. */
export async function findKickVotes(db: Conn, gameId: string) {
  return db
    .selectFrom('pictionary_kick_votes')
    .select(['target_id', 'voter_id'])
    .where('game_id', '=', gameId)
    .execute();
}

/** A vote; false when this voter already voted against this target. */
export async function insertKickVote(db: Conn, gameId: string, targetId: string, voterId: string) {
  const r = await db
    .insertInto('pictionary_kick_votes')
    .values({ game_id: gameId, target_id: targetId, voter_id: voterId })
    .onConflict((oc) => oc.columns(['game_id', 'target_id', 'voter_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function insertKicked(db: Conn, gameId: string, userId: string): Promise<void> {
  await db
    .insertInto('pictionary_kicked')
    .values({ game_id: gameId, user_id: userId })
    .onConflict((oc) => oc.columns(['game_id', 'user_id']).doNothing())
    .execute();
}

export async function isKicked(db: Conn, gameId: string, userId: string): Promise<boolean> {
  const r = await db
    .selectFrom('pictionary_kicked')
    .select('user_id')
    .where('game_id', '=', gameId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r !== undefined;
}
