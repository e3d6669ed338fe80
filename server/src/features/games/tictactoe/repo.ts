import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { TicTacToeGamesTable } from './tables.ts';

/** A plain connection or a transaction: every query here runs on either. */
type Conn = Kysely<Database>;

/** A game row with its players' (and invitee's) usernames, and when each seated player was last seen. */
export type GameRow = TicTacToeGamesTable & {
  player1_name: string;
  player2_name: string | null;
  invited_name: string | null;
  player1_seen_at: string | null;
  player2_seen_at: string | null;
};

export type GameChanges = Partial<
  Pick<
    TicTacToeGamesTable,
    | 'status'
    | 'board'
    | 'current_player'
    | 'winner'
    | 'end_reason'
    | 'player2_id'
    | 'last_move'
    | 'reserved_for'
    | 'rematch_id'
    | 'rematch_by'
    | 'updated_at'
  >
>;

function selectGames(db: Conn) {
  return (
    db
      .selectFrom('tictactoe_games as g')
      .innerJoin('users as u1', 'u1.discord_id', 'g.player1_id')
      .leftJoin('users as u2', 'u2.discord_id', 'g.player2_id')
      .leftJoin('users as u3', 'u3.discord_id', 'g.reserved_for')
      // Seats exist only while the game is unfinished, so a finished game has no presence.
      .leftJoin('tictactoe_seats as p1', (join) =>
        join.onRef('p1.user_id', '=', 'g.player1_id').onRef('p1.game_id', '=', 'g.id'),
      )
      .leftJoin('tictactoe_seats as p2', (join) =>
        join.onRef('p2.user_id', '=', 'g.player2_id').onRef('p2.game_id', '=', 'g.id'),
      )
      .selectAll('g')
      // Players as everyone sees them: their server nickname, else global name, else username (issue 43).
      .select((eb) => [
        eb.fn.coalesce('u1.server_nick', 'u1.global_name', 'u1.username').as('player1_name'),
        eb.fn.coalesce('u2.server_nick', 'u2.global_name', 'u2.username').as('player2_name'),
        eb.fn.coalesce('u3.server_nick', 'u3.global_name', 'u3.username').as('invited_name'),
        'p1.seen_at as player1_seen_at',
        'p2.seen_at as player2_seen_at',
      ])
  );
}

export async function findGame(db: Conn, id: string): Promise<GameRow | undefined> {
  return firstRow(db, compiledReads(db).byId, id);
}

/** The user's unfinished game (the one their seat points at). */
export async function findSeatedGame(db: Conn, userId: string): Promise<GameRow | undefined> {
  return firstRow(db, compiledReads(db).bySeat, userId);
}

/*
 * The two reads of a game behind nearly every request (a move, a poll, a room's join), built and compiled
 * once per database and then run with their one parameter. Building the six-table select with Kysely on
 * every call cost more than running it in SQLite (≈ 30 µs and ≈ 20 KiB of garbage a call, a third of a
 * move's allocations; the display names' `coalesce` added half again), which slowed tic-tac-toe's move →
 * push by 13–26 % (issue 46, docs/benchmarks.md). The SQL and the plan are the same as built each time.
 */
type CompiledReads = { byId: CompiledQuery<GameRow>; bySeat: CompiledQuery<GameRow> };
const compiled = new WeakMap<Conn, CompiledReads>();
/** Stands for the parameter while compiling; checked to be the query's only one. */
const KEY = '\u0000key';

function compiledReads(db: Conn): CompiledReads {
  let reads = compiled.get(db);
  if (!reads) {
    reads = {
      byId: keyedOnly(selectGames(db).where('g.id', '=', KEY).compile()),
      bySeat: keyedOnly(
        selectGames(db)
          .innerJoin('tictactoe_seats as s', 's.game_id', 'g.id')
          .where('s.user_id', '=', KEY)
          .compile(),
      ),
    };
    compiled.set(db, reads);
  }
  return reads;
}

function keyedOnly(query: CompiledQuery<GameRow>): CompiledQuery<GameRow> {
  if (query.parameters.length !== 1 || query.parameters[0] !== KEY) {
    throw new Error('tic-tac-toe: a compiled game read must take exactly one parameter, its key');
  }
  return query;
}

async function firstRow(db: Conn, query: CompiledQuery<GameRow>, key: string): Promise<GameRow | undefined> {
  const { rows } = await db.executeQuery<GameRow>({ ...query, parameters: [key] });
  return rows[0];
}

/**
 * Takes the matchmaking lock for the rest of the transaction (a row lock on PostgreSQL, the write lock
 * on SQLite): joins run one at a time, so two players searching at once always meet.
 */
export async function lockMatchmaking(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('tictactoe_matchmaking')
    .set((eb) => ({ turns: eb('turns', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/**
 * Ids of the oldest games waiting for an opponent that are open to anyone, not the user's own, and whose
 * creator has had the game on screen since `seenSince` (a game left behind in a closed tab is no match).
 */
export async function findOpenGameIds(
  db: Conn,
  userId: string,
  seenSince: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('tictactoe_games as g')
    .innerJoin('tictactoe_seats as s', (join) =>
      join.onRef('s.game_id', '=', 'g.id').onRef('s.user_id', '=', 'g.player1_id'),
    )
    .select('g.id')
    .where('g.status', '=', 'waiting')
    .where('g.player2_id', 'is', null)
    .where('g.reserved_for', 'is', null)
    .where('g.is_private', '=', 0)
    .where('g.player1_id', '!=', userId)
    .where('s.seen_at', '>=', seenSince)
    .orderBy('g.created_at')
    .orderBy('g.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether a guarded update found its row (false: someone else changed the game first). */
const applied = (r: { numUpdatedRows: bigint }) => Number(r.numUpdatedRows) === 1;

/**
 * Takes seat 2 of a waiting game and starts it, only if it is still waiting with seat 2 free (and, for a
 * rematch, reserved for this user). The condition makes two simultaneous joiners unable to both win.
 */
export async function takeSecondSeat(
  db: Conn,
  gameId: string,
  userId: string,
  now: string,
  reservedFor: string | null,
): Promise<boolean> {
  let q = db
    .updateTable('tictactoe_games')
    .set((eb) => ({
      player2_id: userId,
      status: 'in_progress',
      reserved_for: null,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', gameId)
    .where('status', '=', 'waiting')
    .where('player2_id', 'is', null)
    .where('player1_id', '!=', userId);
  q = reservedFor ? q.where('reserved_for', '=', reservedFor) : q.where('reserved_for', 'is', null);
  const r = await q.executeTakeFirst();
  return applied(r);
}

export async function insertGame(db: Conn, row: TicTacToeGamesTable): Promise<void> {
  await db.insertInto('tictactoe_games').values(row).execute();
}

/** Seats a user in a game; false when they already hold a seat (in another unfinished game). */
export async function insertSeat(db: Conn, userId: string, gameId: string, now: string): Promise<boolean> {
  const r = await db
    .insertInto('tictactoe_seats')
    .values({ user_id: userId, game_id: gameId, seen_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Notes that the user has their game on screen; written at most once per `olderThan` (a poll is a read). */
export async function touchSeat(db: Conn, userId: string, now: string, olderThan: string): Promise<void> {
  await db
    .updateTable('tictactoe_seats')
    .set({ seen_at: now })
    .where('user_id', '=', userId)
    .where('seen_at', '<', olderThan)
    .execute();
}

export async function deleteSeats(db: Conn, gameId: string): Promise<void> {
  await db.deleteFrom('tictactoe_seats').where('game_id', '=', gameId).execute();
}

/**
 * Applies changes only if the game is still at `version` (and bumps it). False means someone else
 * changed the game first: re-read and decide again. This is what makes moves race-free.
 */
export async function updateGameIfVersion(
  db: Conn,
  id: string,
  version: number,
  changes: GameChanges,
): Promise<boolean> {
  return applied(await versionedUpdate(db, id, version, changes).executeTakeFirst());
}

/** The update of `changes` that bumps the version, guarded by the version read before. */
function versionedUpdate(db: Conn, id: string, version: number, changes: GameChanges) {
  return db
    .updateTable('tictactoe_games')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version);
}

/**
 * Finishes a game whose player `absentId` has left: applies only if the game is still at `version` and that
 * player has not been seen since `seenSince`, both checked in this one statement. A move or a poll by the
 * absent player that lands first makes it apply nothing.
 */
export async function updateGameIfAbsent(
  db: Conn,
  id: string,
  version: number,
  absentId: string,
  seenSince: string,
  changes: GameChanges,
): Promise<boolean> {
  const r = await versionedUpdate(db, id, version, changes)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tictactoe_seats')
            .select('user_id')
            .where('user_id', '=', absentId)
            .where('game_id', '=', id)
            .where('seen_at', '>=', seenSince),
        ),
      ),
    )
    .executeTakeFirst();
  return applied(r);
}

/** Withdraws a rematch offer from the finished game it was made on (only if it still points at it). */
export async function clearRematchOffer(
  db: Conn,
  gameId: string,
  rematchId: string,
  now: string,
): Promise<boolean> {
  const r = await db
    .updateTable('tictactoe_games')
    .set((eb) => ({ rematch_id: null, rematch_by: null, version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', gameId)
    .where('rematch_id', '=', rematchId)
    .executeTakeFirst();
  return applied(r);
}

export async function inTransaction<T>(
  db: Conn,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(work);
}

/**
 * Seat 1 of a rematch offered by the previous X (who now plays O, in seat 2): taken by the invited player,
 * who plays X; the game starts.
 */
export async function takeReservedFirstSeat(
  db: Conn,
  gameId: string,
  userId: string,
  now: string,
): Promise<boolean> {
  const r = await db
    .updateTable('tictactoe_games')
    .set((eb) => ({
      status: 'in_progress',
      reserved_for: null,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', gameId)
    .where('status', '=', 'waiting')
    .where('player1_id', '=', userId)
    .where('reserved_for', '=', userId)
    .executeTakeFirst();
  return applied(r);
}
