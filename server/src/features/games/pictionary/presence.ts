import { PICTIONARY_ABSENT_AFTER_MS, PICTIONARY_PLAYERS } from '@guildhall/common';
import { RETRY, retryOptimisticOr } from '../../../platform/optimistic.ts';
import type { GameChanges } from './repo.ts';
import * as repo from './repo.ts';
import { afterChange, apply, loadState, MAX_ATTEMPTS, type PictionaryContext } from './service.ts';
import { finishChanges, nextHost, revealChanges } from './turns.ts';

/**
 * Presence (issue 29). A player is seen while a socket of theirs is in the game's room (noted every
 * PICTIONARY_PRESENCE_TICK_MS by the instance holding it) and on every read or guess. Gone longer than
 * PICTIONARY_ABSENT_AFTER_MS: dropped from a lobby (the host role passes on; a lobby with nobody left is
 * deleted); in a running game counted away — not a guesser, skipped as drawer, an away drawer's turn ends,
 * fewer than 2 players here finishes the game — while seat and points stay theirs for when they return.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** Notes players as seen now, game by game, and brings back any of them counted away. */
export async function noteSeen(ctx: PictionaryContext, seen: Map<string, string[]>): Promise<void> {
  const now = iso(ctx.clock.now());
  for (const [gameId, userIds] of seen) await repo.markSeen(ctx.db, gameId, userIds, now);
  const away = await repo.findAway(ctx.db, [...seen.keys()]);
  const back = new Map<string, string[]>();
  for (const a of away) {
    if (!seen.get(a.game_id)?.includes(a.user_id)) continue;
    back.set(a.game_id, [...(back.get(a.game_id) ?? []), a.user_id]);
  }
  for (const [gameId, userIds] of back) await comeBack(ctx, gameId, userIds);
}

/** One player seen now (a request or a subscribe). */
export function noteOneSeen(ctx: PictionaryContext, gameId: string, userId: string): Promise<void> {
  return noteSeen(ctx, new Map([[gameId, [userId]]]));
}

async function comeBack(ctx: PictionaryContext, gameId: string, userIds: string[]): Promise<void> {
  // Given up under contention: the next beat that sees them brings them back.
  await retryOptimisticOr(
    MAX_ATTEMPTS,
    () => undefined,
    async () => {
      const state = await loadState(ctx.db, gameId);
      if (!state) return;
      const returning = state.players.filter((p) => p.away && userIds.includes(p.user_id));
      if (returning.length === 0) return;
      const ids = returning.map((p) => p.user_id);
      const applied = await apply(ctx, state.row, { updated_at: iso(ctx.clock.now()) }, (trx) =>
        repo.setAway(trx, gameId, ids, 0),
      );
      if (!applied) return RETRY;
      await afterChange(ctx, gameId, null);
      return;
    },
  );
}

/** Acts on every player gone longer than the grace (run by the sweep). Returns the games changed. */
export async function dropAbsent(ctx: PictionaryContext): Promise<number> {
  const now = ctx.clock.now();
  // Right after a start nobody's sockets had the time to come back: watch for one grace first.
  if (now - ctx.startedAt < PICTIONARY_ABSENT_AFTER_MS) return 0;
  const cutoff = iso(now - PICTIONARY_ABSENT_AFTER_MS);
  let changed = 0;
  for (const gameId of await repo.findGamesWithAbsentPlayers(ctx.db, cutoff)) {
    if (await dropAbsentFrom(ctx, gameId, cutoff)) changed += 1;
  }
  return changed;
}

async function dropAbsentFrom(ctx: PictionaryContext, gameId: string, cutoff: string): Promise<boolean> {
  // Given up under contention: the next sweep tries again.
  return retryOptimisticOr(
    MAX_ATTEMPTS,
    () => false,
    async () => {
      const state = await loadState(ctx.db, gameId);
      if (!state || state.row.status === 'finished') return false;
      const { row, players, guesses } = state;
      const now = ctx.clock.now();
      const active = players.filter((p) => p.left_at === null);
      const gone = active.filter((p) => !p.away && (p.seen_at === null || p.seen_at < cutoff));
      if (gone.length === 0) return false;
      const goneIds = new Set(gone.map((p) => p.user_id));
      const here = active.filter((p) => !p.away && !goneIds.has(p.user_id));
      const changes: GameChanges = { updated_at: iso(now) };
      const host = players.find((p) => p.user_id === row.host_id);
      if (host && goneIds.has(host.user_id) && here.length > 0)
        changes.host_id = nextHost(players, host, goneIds)!;

      if (row.status === 'lobby') {
        const applied = await apply(ctx, row, changes, async (trx) => {
          if (here.length === 0) return repo.deleteGame(trx, gameId);
          for (const p of gone) {
            await repo.deleteSeat(trx, p.user_id, gameId);
            await repo.deletePlayer(trx, gameId, p.user_id);
          }
        });
        if (!applied) return RETRY;
        if (here.length > 0) await afterChange(ctx, gameId, null);
        return true;
      }

      const correct = new Set(guesses.filter((g) => g.is_correct).map((g) => g.user_id));
      const guessers = here.filter((p) => p.user_id !== row.drawer_id);
      if (here.length < PICTIONARY_PLAYERS.min) Object.assign(changes, finishChanges(now));
      else if (
        (row.turn_phase === 'drawing' && guessers.every((p) => correct.has(p.user_id))) ||
        // An absent drawer's turn ends, whether they were drawing or still choosing the word.
        (row.turn_phase !== 'reveal' && goneIds.has(row.drawer_id ?? ''))
      ) {
        Object.assign(changes, revealChanges(now));
      }
      const applied = await apply(ctx, row, changes, (trx) => repo.setAway(trx, gameId, [...goneIds], 1));
      if (!applied) return RETRY;
      await afterChange(ctx, gameId, null, row);
      return true;
    },
  );
}
