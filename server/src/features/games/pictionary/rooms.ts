import { randomUUID } from 'node:crypto';
import { PICTIONARY_ABSENT_AFTER_MS, PICTIONARY_TEXTS as T } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic, rollbackOn } from '../../../platform/optimistic.ts';
import * as repo from './repo.ts';
import {
  afterChange,
  busy,
  type GameResult,
  loadState,
  MAX_ATTEMPTS,
  newGameRow,
  type PictionaryContext,
  viewOf,
} from './service.ts';

/**
 * Rooms beyond Find Game (issue 29): joining one lobby by its invite link (a private lobby is joined this
 * way only), and Play again, which moves the group of a finished game to a new lobby with the same host
 * and settings.
 */

const iso = (ms: number) => new Date(ms).toISOString();

class Busy extends Error {}

/**
 * Opens a new lobby hosted by the user (`/pictionary` in Discord, issue 44). Unlike Find Game it never
 * joins someone else's lobby, so the invite the command posts is the caller's own; a user already in a
 * game gets that game back. `postedIn`: the Discord channel the invite goes to (no channel note there).
 */
export async function openLobby(
  ctx: PictionaryContext,
  userId: string,
  postedIn: string | null,
): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const seated = await repo.findSeatGameId(ctx.db, userId);
    if (seated)
      return { game: await viewOf(ctx, seated, userId, true), message: 'You are already in a game' };
    const gameId = randomUUID();
    const created = await rollbackOn(Busy, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        await repo.lockMatchmaking(trx);
        const now = iso(ctx.clock.now());
        await repo.insertGame(trx, newGameRow(gameId, userId, now));
        await repo.insertPlayer(trx, gameId, userId, 0, now);
        if (!(await repo.insertSeat(trx, userId, gameId))) throw new Busy();
        return true;
      }),
    );
    if (!created) return RETRY; // a simultaneous request seated them: the next round returns that game
    ctx.lobbyOpened?.({ id: gameId, hostId: userId }, postedIn);
    return {
      game: await viewOf(ctx, gameId, userId, true),
      message: 'Created a new lobby; you are the host',
    };
  });
}

/** Joins the lobby `gameId` (an invite link), public or private, if it has room. */
export async function joinById(ctx: PictionaryContext, userId: string, gameId: string): Promise<GameResult> {
  const seated = await repo.findSeatGameId(ctx.db, userId);
  if (seated === gameId)
    return { game: await viewOf(ctx, gameId, userId, true), message: 'You are in this game' };
  if (seated) throw fail('IN_GAME', T.inAnotherGame);
  if (await repo.isKicked(ctx.db, gameId, userId)) throw fail('KICKED', T.kickedFromGame);
  const joined = await repo.inTransaction(ctx.db, async (trx) => {
    await repo.lockMatchmaking(trx);
    const row = await repo.findGame(trx, gameId);
    if (!row) throw fail('NOT_FOUND', T.gameNotFound);
    if (row.status !== 'lobby') throw fail('NOT_IN_LOBBY', T.notALobby);
    const players = await repo.findPlayers(trx, gameId);
    if (players.some((p) => p.user_id === userId)) return false;
    if (players.length >= row.max_players) throw fail('LOBBY_FULL', T.lobbyFull);
    const now = iso(ctx.clock.now());
    if (!(await repo.insertSeat(trx, userId, gameId))) throw fail('IN_GAME', T.inAnotherGame);
    await repo.insertPlayer(trx, gameId, userId, Math.max(-1, ...players.map((p) => p.seq)) + 1, now);
    await repo.updateGameIfVersion(trx, gameId, row.version, { updated_at: now });
    return true;
  });
  if (joined) await afterChange(ctx, gameId, null);
  return { game: await viewOf(ctx, gameId, userId, true), message: 'Joined the lobby' };
}

/**
 * Play again after Game Complete: the first player to ask opens a new lobby with the finished game's host
 * and settings (private stays private) and seats every player of it who is still there and in no other
 * game, in the same join order; the finished game points at it (`nextGameId`), so every screen follows.
 * Asking again, or later, joins that lobby.
 */
export async function playAgain(ctx: PictionaryContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await loadState(ctx.db, gameId);
    if (!state) throw fail('NOT_FOUND', T.gameNotFound);
    const { row, players } = state;
    const me = players.find((p) => p.user_id === userId);
    if (!me) throw fail('FORBIDDEN', T.notAPlayer);
    if (row.status !== 'finished') throw fail('NOT_FINISHED', T.notFinished);
    if (row.next_game_id) return joinById(ctx, userId, row.next_game_id);

    const now = ctx.clock.now();
    const seenSince = iso(now - PICTIONARY_ABSENT_AFTER_MS);
    const group = players.filter(
      (p) => p.user_id === userId || (p.left_at === null && p.seen_at !== null && p.seen_at >= seenSince),
    );
    const nextId = randomUUID();
    const opened = await rollbackOn(Busy, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        await repo.lockMatchmaking(trx);
        if (!(await repo.updateGameIfVersion(trx, gameId, row.version, { next_game_id: nextId })))
          throw new Busy();
        const host = group.some((p) => p.user_id === row.host_id) ? row.host_id : userId;
        await repo.insertGame(trx, {
          ...newGameRow(nextId, host, iso(now)),
          max_rounds: row.max_rounds,
          max_players: row.max_players,
          word_banks: row.word_banks,
          custom_words: row.custom_words,
          is_private: row.is_private,
          hint_count: row.hint_count,
          draw_seconds: row.draw_seconds,
        });
        let seq = 0;
        const seated = new Set<string>();
        for (const p of group) {
          // Someone already in another game stays there; the asker must not be.
          if (!(await repo.insertSeat(trx, p.user_id, nextId))) {
            if (p.user_id === userId) throw fail('IN_GAME', T.inAnotherGame);
            continue;
          }
          await repo.insertPlayer(trx, nextId, p.user_id, seq++, iso(now));
          seated.add(p.user_id);
        }
        // The host went into another game meanwhile: the asker hosts.
        if (!seated.has(host)) await repo.updateGameIfVersion(trx, nextId, 0, { host_id: userId });
        return true;
      }),
    );
    if (!opened) return RETRY; // the game changed (another player opened the next lobby, say): decide again
    await afterChange(ctx, gameId, null);
    await afterChange(ctx, nextId, null);
    return { game: await viewOf(ctx, nextId, userId, true), message: 'A new lobby with the same players' };
  });
}
