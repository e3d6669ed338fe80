import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic } from '../../../platform/optimistic.ts';
import { kickVotesFor, kickVotesNeeded, presentGame } from './present.ts';
import * as repo from './repo.ts';
import {
  afterChange,
  apply,
  busy,
  departureChanges,
  type GameResult,
  loadState,
  MAX_ATTEMPTS,
  type PictionaryContext,
  playerState,
} from './service.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Kicking a player (issue 29). In the lobby the host removes a player at once. In a running game any player
 * votes; once a majority of the other players present (not away, not the target) voted, the target is out:
 * marked left (seat freed, points kept in the record), their turn ends if they were the drawer, the host role
 * passes on, fewer than 2 players here finishes the game. A kicked player can never join that game again
 * (not by its link, not by Find Game). A vote counts while its voter is present; votes are never withdrawn.
 */
export async function kickPlayer(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  targetId: string,
): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await playerState(ctx.db, userId, gameId);
    const { row, players } = state;
    if (row.status === 'finished') throw fail('NOT_IN_PROGRESS', T.notInProgress);
    if (targetId === userId) throw fail('BAD_REQUEST', T.cannotKickSelf);
    const target = players.find((p) => p.user_id === targetId && p.left_at === null);
    if (!target) throw fail('NOT_FOUND', T.notInGame);
    const now = ctx.clock.now();

    if (row.status === 'lobby') {
      if (row.host_id !== userId) throw fail('FORBIDDEN', T.onlyHostKick);
      const applied = await apply(ctx, row, { updated_at: iso(now) }, async (trx) => {
        await repo.deleteSeat(trx, targetId, gameId);
        await repo.deletePlayer(trx, gameId, targetId);
        await repo.insertKicked(trx, gameId, targetId);
      });
      if (!applied) return RETRY;
      await tellKicked(ctx, gameId, targetId);
      return { game: await afterChange(ctx, gameId, userId), message: T.kickedName(target.username) };
    }

    if (kickVotesFor(state, targetId).includes(userId)) throw fail('ALREADY_VOTED', T.alreadyVoted);
    const votes = kickVotesFor(state, targetId).length + 1;
    const out = votes >= kickVotesNeeded(players, targetId);
    const changes = out ? departureChanges(state, target, now) : { updated_at: iso(now) };
    const applied = await apply(ctx, row, changes, async (trx) => {
      await repo.insertKickVote(trx, gameId, targetId, userId);
      if (!out) return;
      await repo.deleteSeat(trx, targetId, gameId);
      await repo.markPlayerLeft(trx, gameId, targetId, iso(now));
      await repo.insertKicked(trx, gameId, targetId);
    });
    if (!applied) return RETRY;
    const game = await afterChange(ctx, gameId, userId, row);
    if (out) await tellKicked(ctx, gameId, targetId);
    return {
      game,
      message: out ? T.kickedName(target.username) : T.kickVotes(votes, kickVotesNeeded(players, targetId)),
    };
  });
}

/**
 * The kicked player's screen gets one last view, without them among the players (it goes back to the start).
 * It carries nothing a guesser may not see: they are no drawer any more and in no chat.
 */
async function tellKicked(ctx: PictionaryContext, gameId: string, targetId: string): Promise<void> {
  const state = await loadState(ctx.db, gameId);
  if (state) ctx.pushState(targetId, presentGame(state, targetId, ctx.clock.now()));
}
