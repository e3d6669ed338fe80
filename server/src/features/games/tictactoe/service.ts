import { randomUUID } from 'node:crypto';
import {
  applyMove,
  emptyBoard,
  type Mark,
  markOf,
  moveRejection,
  opponentStillHereText,
  otherMark,
  TICTACTOE_TEXTS as T,
  TICTACTOE_ABSENT_AFTER_MS,
  TICTACTOE_WAITING_ABSENT_AFTER_MS,
  type TicTacToeGame,
} from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import type { Clock } from '../../../platform/feature.ts';
import { RETRY, retryOptimistic, rollbackOn } from '../../../platform/optimistic.ts';
import { isAbsent, msUntilAbsent, seenBy } from './presence.ts';
import { encodeBoard, presentGame, seriesAfter } from './present.ts';
import type { GameChanges, GameRow } from './repo.ts';
import * as repo from './repo.ts';
import type { TicTacToeGamesTable } from './tables.ts';

export type GameContext = {
  db: Db;
  /** The feature's clock (the platform's): presence, absence and timestamps are read from it. */
  clock: Clock;
  /** Pushes a game's new state to everyone in its room (the realtime hub); called after every change. */
  publish: (game: TicTacToeGame) => void;
  /**
   * A game anyone may join now waits for an opponent (channel notes, issue 44); `postedIn`: the Discord
   * channel whose command already posted its invite. Never awaited: a note must not hold up the join.
   */
  lobbyOpened?: (game: { id: string; hostId: string }, postedIn: string | null) => void;
};

export type GameResult = { game: TicTacToeGame; message: string };

/** Optimistic updates retry this often before answering 409 (only under heavy contention). */
const MAX_ATTEMPTS = 8;
const busy = () => fail('CONFLICT', T.busy);
const MATCH_CANDIDATES = 5;
/** Presence is written at most this often per player (a poll is a read); see TICTACTOE_ABSENT_AFTER_MS. */
const SEEN_WRITE_EVERY_MS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString();
/** Now on the feature's clock, as stored (ISO-8601 text). */
export const nowIso = (ctx: Pick<GameContext, 'clock'>) => iso(ctx.clock.now());

/** Thrown inside a transaction to roll it back because the user already holds a seat. */
class SeatTaken extends Error {}
/** Thrown inside a transaction to roll it back because the game changed under us. */
class VersionConflict extends Error {}

/**
 * Joins the oldest game waiting for an opponent that is not the user's own, else creates one. A user
 * already in an unfinished game gets that game back: nobody is ever in two.
 */
export async function joinGame(ctx: GameContext, userId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const current = await repo.findSeatedGame(ctx.db, userId);
    if (current) {
      await markSeen(ctx, userId);
      const now = ctx.clock.now();
      return {
        game: presentGame(seenBy(current, userId, iso(now)), now),
        message: 'You are already in a game',
      };
    }

    const outcome = await rollbackOn(SeatTaken, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        await repo.lockMatchmaking(trx);
        const nowMs = ctx.clock.now();
        const now = iso(nowMs);
        // A waiting game is matched only while its creator still has it on screen.
        const seenSince = iso(nowMs - TICTACTOE_WAITING_ABSENT_AFTER_MS);
        for (const id of await repo.findOpenGameIds(trx, userId, seenSince, MATCH_CANDIDATES)) {
          if (await repo.takeSecondSeat(trx, id, userId, now, null)) {
            if (!(await repo.insertSeat(trx, userId, id, now))) throw new SeatTaken();
            return { gameId: id, joined: true };
          }
        }
        const gameId = randomUUID();
        await repo.insertGame(trx, newGameRow(gameId, userId, now, null));
        if (!(await repo.insertSeat(trx, userId, gameId, now))) throw new SeatTaken();
        return { gameId, joined: false };
      }),
    );
    if (!outcome) return RETRY; // a simultaneous join of the same user won; the next round returns its game

    const game = await loadGame(ctx, outcome.gameId);
    if (outcome.joined) ctx.publish(game);
    else ctx.lobbyOpened?.({ id: game.id, hostId: userId }, null);
    return { game, message: outcome.joined ? 'Joined game' : T.waitingForOpponent };
  });
}

/** The game, for its players (and a player invited to a rematch) only. */
export async function getGame(ctx: GameContext, userId: string, gameId: string): Promise<GameResult> {
  const row = await findViewable(ctx.db, userId, gameId);
  await markSeen(ctx, userId);
  const now = ctx.clock.now();
  return { game: presentGame(seenBy(row, userId, iso(now)), now), message: 'OK' };
}

/** The user's unfinished game, or null. */
export async function currentGame(
  ctx: GameContext,
  userId: string,
): Promise<{ game: TicTacToeGame | null; message: string }> {
  const row = await repo.findSeatedGame(ctx.db, userId);
  if (!row) return { game: null, message: 'No active game' };
  await markSeen(ctx, userId);
  const now = ctx.clock.now();
  return { game: presentGame(seenBy(row, userId, iso(now)), now), message: 'OK' };
}

/**
 * A move by the server's rules. Race-free: the write applies only if the game is still at the version the
 * decision was made on; otherwise it is decided again on the fresh state. Repeating the move that was
 * just applied (a retry) returns the current state instead of an error. A move also notes the mover as
 * seen, in the same transaction, so a claim that they left cannot land after it.
 */
export async function makeMove(
  ctx: GameContext,
  userId: string,
  gameId: string,
  position: number,
): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const row = await findPlayable(ctx.db, userId, gameId);
    const nowMs = ctx.clock.now();
    const game = presentGame(row, nowMs);
    const mark = markOf(game, userId) as Mark;
    if (row.last_move === position && game.board[position] === mark) {
      return { game, message: 'Move already applied' };
    }
    const rejection = moveRejection(game, mark, position);
    if (rejection) throw fail('INVALID_MOVE', rejection);

    const next = applyMove(game, mark, position);
    const now = iso(nowMs);
    const changes: GameChanges = {
      board: encodeBoard(next.board),
      current_player: next.currentPlayer,
      status: next.status,
      winner: next.winner,
      end_reason: next.winner === null ? null : next.winner === 'draw' ? 'draw' : 'win',
      last_move: position,
      updated_at: now,
    };
    const applied = await rollbackOn(VersionConflict, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        if (!(await repo.updateGameIfVersion(trx, row.id, row.version, changes))) throw new VersionConflict();
        if (next.status === 'finished') await repo.deleteSeats(trx, row.id);
        else await repo.touchSeat(trx, userId, now, now);
        return true;
      }),
    );
    if (!applied) return RETRY;

    const updated = presentGame(seenBy({ ...row, ...changes, version: row.version + 1 }, userId, now), nowMs);
    ctx.publish(updated);
    return { game: updated, message: 'Move applied' };
  });
}

/** Leaving a waiting game cancels it; leaving a game in progress forfeits it to the opponent. */
export async function leaveGame(ctx: GameContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const row = await findPlayable(ctx.db, userId, gameId);
    const nowMs = ctx.clock.now();
    if (row.status === 'finished') {
      // Noted and pushed, so the opponent's screen stops offering a rematch (issue 29).
      const field = row.player1_id === userId ? 'player1_left' : 'player2_left';
      if (Number(row[field]) === 1) return { game: presentGame(row, nowMs), message: T.alreadyFinished };
      const changes: GameChanges = { [field]: 1, updated_at: iso(nowMs) };
      if (!(await repo.updateGameIfVersion(ctx.db, row.id, row.version, changes))) return RETRY;
      const updated = presentGame({ ...row, ...changes, version: row.version + 1 }, nowMs);
      ctx.publish(updated);
      return { game: updated, message: T.alreadyFinished };
    }

    const mark = markOf(presentGame(row, nowMs), userId) as Mark;
    const now = iso(nowMs);
    const changes: GameChanges =
      row.status === 'waiting'
        ? { status: 'finished', end_reason: 'cancelled', reserved_for: null, updated_at: now }
        : { status: 'finished', winner: otherMark(mark), end_reason: 'forfeit', updated_at: now };
    let withdrawnFrom: string | null = null;
    const applied = await rollbackOn(VersionConflict, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        if (!(await repo.updateGameIfVersion(trx, row.id, row.version, changes))) throw new VersionConflict();
        await repo.deleteSeats(trx, row.id);
        // A withdrawn rematch offer must stop showing on the finished game it was made on.
        if (row.rematch_of && (await repo.clearRematchOffer(trx, row.rematch_of, row.id, now))) {
          withdrawnFrom = row.rematch_of;
        }
        return true;
      }),
    );
    if (!applied) return RETRY;

    const updated = presentGame({ ...row, ...changes, version: row.version + 1 }, nowMs);
    ctx.publish(updated);
    if (withdrawnFrom) ctx.publish(await loadGame(ctx, withdrawnFrom));
    return {
      game: updated,
      message: row.status === 'waiting' ? 'Game cancelled' : 'You left the game; your opponent wins',
    };
  });
}

/**
 * The win for a player whose opponent left a game in progress: once the opponent has not been seen for
 * TICTACTOE_ABSENT_AFTER_MS, the player who stayed may claim it (`endReason: abandoned`). Race-free like a
 * move: it applies only at the version it was decided on and only if the opponent is still unseen, so a
 * move or a poll by the opponent that lands first refuses it. A repeated claim returns the won game.
 */
export async function claimWin(ctx: GameContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const row = await findPlayable(ctx.db, userId, gameId);
    const now = ctx.clock.now();
    const mark = markOf(presentGame(row, now), userId) as Mark;
    if (row.status === 'finished' && row.end_reason === 'abandoned' && row.winner === mark) {
      return { game: presentGame(row, now), message: 'Win already claimed' };
    }
    if (row.status !== 'in_progress') {
      throw fail('NOT_IN_PROGRESS', row.status === 'waiting' ? T.notStarted : T.alreadyFinished);
    }
    const [opponentId, opponentSeenAt] =
      mark === 'X' ? [row.player2_id!, row.player2_seen_at] : [row.player1_id, row.player1_seen_at];
    if (!isAbsent(opponentSeenAt, now)) {
      throw fail('OPPONENT_PRESENT', opponentStillHereText(msUntilAbsent(opponentSeenAt, now)));
    }

    const at = iso(now);
    const changes: GameChanges = {
      status: 'finished',
      winner: mark,
      end_reason: 'abandoned',
      updated_at: at,
    };
    const seenSince = iso(now - TICTACTOE_ABSENT_AFTER_MS);
    const applied = await rollbackOn(VersionConflict, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        if (!(await repo.updateGameIfAbsent(trx, row.id, row.version, opponentId, seenSince, changes))) {
          throw new VersionConflict();
        }
        await repo.deleteSeats(trx, row.id);
        return true;
      }),
    );
    if (!applied) return RETRY; // a move or the opponent's return came first: decide again on the fresh state

    const updated = presentGame({ ...row, ...changes, version: row.version + 1 }, now);
    ctx.publish(updated);
    return { game: updated, message: 'Your opponent left; you win' };
  });
}

/**
 * Rematch after a finished game: the first player to ask opens a new game (as X) reserved for the
 * opponent and the offer shows on the finished game; the opponent asking too takes seat 2 and it starts.
 */
export async function requestRematch(ctx: GameContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const row = await findPlayable(ctx.db, userId, gameId);
    if (row.status !== 'finished') throw fail('NOT_FINISHED', T.notFinished);
    if (!row.player2_id) throw fail('NO_OPPONENT', T.noOpponent);
    const opponentId = row.player1_id === userId ? row.player2_id : row.player1_id;
    const opponentLeft = Number(row.player1_id === userId ? row.player2_left : row.player1_left) === 1;
    const opponentName = (row.player1_id === userId ? row.player2_name : row.player1_name) ?? opponentId;

    const offer = row.rematch_id ? await repo.findGame(ctx.db, row.rematch_id) : undefined;
    if (offer && offer.status !== 'finished') {
      if (offer.reserved_for !== userId && (offer.player1_id === userId || offer.player2_id === userId)) {
        return { game: presentGame(offer, ctx.clock.now()), message: 'Rematch already requested' };
      }
      const accepted = await acceptRematch(ctx, offer, userId);
      if (!accepted) return RETRY;
      const game = await loadGame(ctx, offer.id);
      ctx.publish(game);
      return { game, message: 'Rematch started' };
    }

    if (opponentLeft) throw fail('OPPONENT_LEFT', T.opponentLeftFinished(opponentName));
    const now = nowIso(ctx);
    const rematchId = randomUUID();
    const offered = await rollbackOn(VersionConflict, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        // X alternates: whoever played O plays X in the rematch (seat 1 always plays X). Asked by the
        // previous X, the new game waits with the asker in seat 2 and seat 1 reserved for the opponent.
        const askerWasX = row.player1_id === userId;
        await repo.insertGame(trx, {
          ...newGameRow(rematchId, askerWasX ? opponentId : userId, now, opponentId),
          player2_id: askerWasX ? userId : null,
          rematch_of: row.id,
          series: JSON.stringify(tallyOf(row)),
        });
        if (!(await repo.insertSeat(trx, userId, rematchId, now))) throw fail('IN_GAME', T.alreadyInGame);
        const changes = { rematch_id: rematchId, rematch_by: userId, updated_at: now };
        if (!(await repo.updateGameIfVersion(trx, row.id, row.version, changes))) throw new VersionConflict();
        return true;
      }),
    );
    if (!offered) return RETRY; // the opponent offered at the same moment: the next round accepts theirs

    ctx.publish(await loadGame(ctx, row.id));
    return {
      game: await loadGame(ctx, rematchId),
      message: 'Rematch requested; waiting for your opponent',
    };
  });
}

/** Whether a user may watch a game's room: its players and a player invited to it. */
export async function authorizeViewer(ctx: GameContext, userId: string, gameId: string): Promise<void> {
  await findViewable(ctx.db, userId, gameId);
  await markSeen(ctx, userId);
}

/** Players with a socket in their game's room on this instance (the presence beat, every 5 s). */
export async function markManySeen(ctx: GameContext, userIds: Iterable<string>): Promise<void> {
  for (const id of userIds) await markSeen(ctx, id);
}

/** The player has their game on screen (see TICTACTOE_ABSENT_AFTER_MS). */
async function markSeen(ctx: GameContext, userId: string): Promise<void> {
  const now = ctx.clock.now();
  await repo.touchSeat(ctx.db, userId, iso(now), iso(now - SEEN_WRITE_EVERY_MS));
}

export async function loadGame(ctx: GameContext, gameId: string): Promise<TicTacToeGame> {
  const row = await repo.findGame(ctx.db, gameId);
  if (!row) throw fail('NOT_FOUND', T.gameNotFound);
  return presentGame(row, ctx.clock.now());
}

async function acceptRematch(ctx: GameContext, offer: GameRow, userId: string): Promise<boolean> {
  return (
    (await rollbackOn(VersionConflict, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        const now = nowIso(ctx);
        const taken =
          offer.player2_id === null
            ? await repo.takeSecondSeat(trx, offer.id, userId, now, userId)
            : await repo.takeReservedFirstSeat(trx, offer.id, userId, now);
        if (!taken) throw new VersionConflict();
        if (!(await repo.insertSeat(trx, userId, offer.id, now))) throw fail('IN_GAME', T.alreadyInGame);
        return true;
      }),
    )) ?? false
  );
}

/** The series tally once `row` (finished) is counted: what its rematch starts from. */
function tallyOf(row: GameRow): { wins: Record<string, number>; draws: number } {
  const { wins, draws } = seriesAfter(row);
  return { wins, draws };
}

async function findViewable(db: Db, userId: string, gameId: string): Promise<GameRow> {
  const row = await repo.findGame(db, gameId);
  if (!row) throw fail('NOT_FOUND', T.gameNotFound);
  if (row.player1_id !== userId && row.player2_id !== userId && row.reserved_for !== userId) {
    throw fail('FORBIDDEN', T.notAPlayer);
  }
  return row;
}

/** The game, for its seated players only (an invitee may look but not act). */
async function findPlayable(db: Db, userId: string, gameId: string): Promise<GameRow> {
  const row = await repo.findGame(db, gameId);
  if (!row) throw fail('NOT_FOUND', T.gameNotFound);
  if (row.player1_id !== userId && row.player2_id !== userId) throw fail('FORBIDDEN', T.notAPlayer);
  return row;
}

/** The row of a new waiting game created by `userId` (reserved for one opponent, or open). */
export function newGameRow(
  id: string,
  userId: string,
  now: string,
  reservedFor: string | null,
): TicTacToeGamesTable {
  return {
    id,
    status: 'waiting',
    board: encodeBoard(emptyBoard()),
    current_player: 'X',
    winner: null,
    end_reason: null,
    player1_id: userId,
    player2_id: null,
    last_move: null,
    version: 0,
    reserved_for: reservedFor,
    rematch_of: null,
    rematch_id: null,
    rematch_by: null,
    series: '{"wins":{},"draws":0}',
    player1_left: 0,
    player2_left: 0,
    is_private: 0,
    created_at: now,
    updated_at: now,
  };
}
