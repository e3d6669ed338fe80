import { randomUUID } from 'node:crypto';
import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic } from '../../../platform/optimistic.ts';
import * as repo from './repo.ts';
import {
  afterChange,
  apply,
  busy,
  type GameResult,
  MAX_ATTEMPTS,
  type PictionaryContext,
  playerState,
} from './service.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A message of the chat among players who guessed (issue 29): the turn's drawer and players who guessed its
 * word may write while the turn runs or is revealed; the message belongs to the turn and only they receive
 * it (present.ts shows the chat to nobody else). Everyone's view is pushed, as with any change, so a new
 * member of the chat (a later correct guess) sees what was said before.
 */
export async function sendChat(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  text: string,
): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const { row, guesses } = await playerState(ctx.db, userId, gameId);
    if (row.status !== 'in_progress') throw fail('NOT_IN_PROGRESS', T.notInProgress);
    if (row.turn_phase === 'choosing') throw fail('CHOOSING', T.choosingNow);
    const guessed = guesses.some((g) => g.user_id === userId && g.is_correct === 1);
    if (row.drawer_id !== userId && !guessed) throw fail('NOT_GUESSED', T.notGuessedYet);
    const now = ctx.clock.now();
    const applied = await apply(ctx, row, { updated_at: iso(now) }, (trx) =>
      repo.insertChat(trx, {
        id: randomUUID(),
        game_id: gameId,
        turn_number: row.turn_number,
        user_id: userId,
        text: text.trim(),
        created_at: iso(now),
      }),
    );
    if (!applied) return RETRY;
    return { game: await afterChange(ctx, gameId, userId), message: 'Sent' };
  });
}
