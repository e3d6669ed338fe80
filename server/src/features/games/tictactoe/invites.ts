import { randomUUID } from 'node:crypto';
import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic, rollbackOn } from '../../../platform/optimistic.ts';
import { presentGame } from './present.ts';
import * as repo from './repo.ts';
import { type GameContext, type GameResult, loadGame, newGameRow, nowIso } from './service.ts';

const MAX_ATTEMPTS = 8;
const busy = () => fail('CONFLICT', T.busy);

/** Thrown inside a transaction to roll it back: the user already holds a seat. */
class SeatTaken extends Error {}

/**
 * "Invite a friend" (issue 29): a private waiting game with the user as X. Find Game never matches into it;
 * its link seats the first member who opens it. Asked again while that invite waits, the same game comes back.
 */
export async function createInvite(ctx: GameContext, userId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const current = await repo.findSeatedGame(ctx.db, userId);
    if (current) {
      if (current.status === 'waiting' && Number(current.is_private) === 1 && current.player1_id === userId)
        return {
          game: presentGame(current, ctx.clock.now()),
          message: 'Your invite is waiting for a friend',
        };
      throw fail('IN_GAME', T.inviteWhileInGame);
    }
    const gameId = randomUUID();
    const created = await rollbackOn(SeatTaken, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        const now = nowIso(ctx);
        await repo.insertGame(trx, { ...newGameRow(gameId, userId, now, null), is_private: 1 });
        if (!(await repo.insertSeat(trx, userId, gameId, now))) throw new SeatTaken();
        return true;
      }),
    );
    if (!created) return RETRY; // a simultaneous request of the same user seated them: the next round says so
    return { game: await loadGame(ctx, gameId), message: 'Invite created; send the link to a friend' };
  });
}

/**
 * Opening an invite link: the member takes seat 2 (O) of that waiting game and it starts. The game's own
 * players get it back as it is; a finished game, a full one or one reserved for a rematch is refused with a
 * 409 that says which.
 */
export async function joinByLink(ctx: GameContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const row = await repo.findGame(ctx.db, gameId);
    if (!row) throw fail('NOT_FOUND', T.gameNotFound);
    if (row.player1_id === userId || row.player2_id === userId)
      return { game: presentGame(row, ctx.clock.now()), message: 'You are already in this game' };
    if (row.status === 'finished') throw fail('GAME_OVER', T.inviteEnded);
    if (row.status === 'in_progress' || row.player2_id) throw fail('GAME_FULL', T.inviteFull);
    if (row.reserved_for) throw fail('RESERVED', T.inviteReserved);
    if (await repo.findSeatedGame(ctx.db, userId)) throw fail('IN_GAME', T.inviteInGame);
    const joined = await rollbackOn(SeatTaken, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        const now = nowIso(ctx);
        // Conditional on the game still waiting with seat 2 free: of two friends opening it at once, one sits.
        if (!(await repo.takeSecondSeat(trx, gameId, userId, now, null))) return false;
        if (!(await repo.insertSeat(trx, userId, gameId, now))) throw new SeatTaken();
        return true;
      }),
    );
    if (joined === null) throw fail('IN_GAME', T.inviteInGame);
    if (!joined) return RETRY; // someone else sat first (or it was cancelled): the next round says which
    const game = await loadGame(ctx, gameId);
    ctx.publish(game);
    return { game, message: 'Joined game' };
  });
}
