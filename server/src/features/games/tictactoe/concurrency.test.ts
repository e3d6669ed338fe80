import { TICTACTOE_TEXTS as T, TICTACTOE_ABSENT_AFTER_MS } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { findGame, updateGameIfAbsent, updateGameIfVersion } from './repo.ts';
import { call, claim, join, lastSeen, move } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { racy: true, features: ['games/tictactoe'] });
});
afterEach(() => ctx.close());

async function startGame() {
  const x = await ctx.signIn();
  const o = await ctx.signIn();
  const { body } = await join(ctx.app, x.token);
  await join(ctx.app, o.token);
  return { x, o, id: body.game!.id };
}

describe('tic-tac-toe under concurrency', () => {
  it('100 simultaneous conflicting moves apply exactly one', async () => {
    const { x, id } = await startGame();
    // X fires 100 moves at once over every cell (O's requests would be legal once X has moved, so they are
    // raced separately below): all but one must lose.
    const requests = Array.from({ length: 100 }, (_, i) => move(ctx.app, x.token, id, i % 9));
    const replies = await Promise.all(requests);

    const applied = replies.filter((r) => r.status === 200 && r.body.message === 'Move applied');
    expect(applied).toHaveLength(1);
    const cell = applied[0]!.body.game!.lastMove!;
    for (const r of replies) {
      if (r === applied[0]) continue;
      // Everything else is refused (not your turn / taken), or is a repeat of the very move that landed.
      if (r.status === 200)
        expect({ message: r.body.message, cell: r.body.game!.lastMove }).toEqual({
          message: 'Move already applied',
          cell,
        });
      else expect([T.notYourTurn, T.cellTaken]).toContain(r.body.error);
    }
    const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
    expect(game.board.filter((c) => c !== '')).toEqual(['X']);
    expect(game).toMatchObject({ version: 2, currentPlayer: 'O', lastMove: cell });
  });

  it('a write decided on a stale version never applies', async () => {
    const { x, id } = await startGame();
    const before = (await findGame(ctx.db, id))!;
    await move(ctx.app, x.token, id, 4);
    // What a second request that read `before` would try to write: refused, nothing overwritten.
    expect(await updateGameIfVersion(ctx.db, id, before.version, { board: 'X........', last_move: 0 })).toBe(
      false,
    );
    expect((await findGame(ctx.db, id))!.board).toBe('....X....');
  });

  it('a whole game of racing double-clicks still follows the rules', async () => {
    const { x, o, id } = await startGame();
    // Each turn both players click the same cell five times at once.
    for (const cell of [4, 0, 8, 2, 6, 1, 7, 5, 3]) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => move(ctx.app, i % 2 === 0 ? x.token : o.token, id, cell)),
      );
      const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
      if (game.status === 'finished') break;
    }
    const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
    const xs = game.board.filter((c) => c === 'X').length;
    const os = game.board.filter((c) => c === 'O').length;
    expect(xs - os === 0 || xs - os === 1).toBe(true);
    expect(game.version).toBe(1 + xs + os);
  });

  it('matchmaking under a stampede: nobody plays themself, nobody sits in two games', async () => {
    const players = await Promise.all(Array.from({ length: 40 }, () => ctx.signIn()));
    // Every player presses Find Game three times at once.
    const replies = await Promise.all(players.flatMap((p) => [0, 1, 2].map(() => join(ctx.app, p.token))));
    expect(replies.every((r) => r.status === 200)).toBe(true);

    const gameOf = new Map<string, Set<string>>();
    for (const [i, r] of replies.entries()) {
      const player = players[Math.floor(i / 3)]!;
      const g = r.body.game!;
      expect(g.player1.id).not.toBe(g.player2?.id);
      expect([g.player1.id, g.player2?.id]).toContain(player.userId);
      gameOf.set(player.userId, (gameOf.get(player.userId) ?? new Set()).add(g.id));
    }
    // All three presses of a player returned the same game...
    for (const ids of gameOf.values()) expect(ids.size).toBe(1);
    // ...each game has at most two distinct players, and at most one game is left waiting.
    const byGame = new Map<string, string[]>();
    for (const [userId, ids] of gameOf) {
      const id = [...ids][0]!;
      byGame.set(id, [...(byGame.get(id) ?? []), userId]);
    }
    for (const members of byGame.values()) expect(members.length).toBeLessThanOrEqual(2);
    const current = await Promise.all(players.map((p) => call(ctx.app, p.token, 'GET', '/current')));
    const statuses = new Map(current.map((r) => [r.body.game!.id, r.body.game!.status]));
    expect([...statuses.values()].filter((s) => s === 'waiting').length).toBeLessThanOrEqual(1);
    expect(byGame.size).toBe(20);
  });

  it('two players accepting each other’s rematch at once end up in one game', async () => {
    const { x, o, id } = await startGame();
    for (const [i, p] of [0, 3, 1, 4, 2].entries()) await move(ctx.app, i % 2 ? o.token : x.token, id, p);
    const [a, b] = await Promise.all([
      call(ctx.app, x.token, 'POST', `/${id}/rematch`),
      call(ctx.app, o.token, 'POST', `/${id}/rematch`),
    ]);
    expect(a.body.game!.id).toBe(b.body.game!.id);
    const final = (await call(ctx.app, x.token, 'GET', `/${a.body.game!.id}`)).body.game!;
    expect(final.status).toBe('in_progress');
  });

  it('a claim racing the "gone" player\'s move: exactly one of them lands, and the game stays consistent', async () => {
    for (let round = 0; round < 8; round++) {
      const { x, o, id } = await startGame();
      await move(ctx.app, x.token, id, 4);
      // O looks gone (its polls stalled) but is in fact making a move as X claims the win. In odd rounds the
      // claim starts two event-loop turns later: it still reads the game before the move is written, but the
      // move's write lands first, so the claim must notice and decide again.
      await lastSeen(ctx.db, o.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
      const [claimed, moved] = await Promise.all([
        turns(round % 2 === 0 ? 0 : 2).then(() => claim(ctx.app, x.token, id)),
        move(ctx.app, o.token, id, 0),
      ]);

      expect([claimed.status, moved.status].sort()).toEqual([200, 409]);
      const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
      if (claimed.status === 200) {
        expect(moved.body.error).toBe(T.alreadyFinished);
        expect(game).toMatchObject({ status: 'finished', winner: 'X', endReason: 'abandoned', version: 3 });
        expect(game.board[0]).toBe('');
      } else {
        expect(claimed.body.code).toBe('OPPONENT_PRESENT');
        expect(game).toMatchObject({ status: 'in_progress', winner: null, currentPlayer: 'X', version: 3 });
        expect(game.board[0]).toBe('O');
      }
    }
  });

  it('a claim decided before the opponent moved or came back never applies', async () => {
    const { x, o, id } = await startGame();
    await lastSeen(ctx.db, o.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    const before = (await findGame(ctx.db, id))!;
    const claimAt = (now: number) => ({
      seenSince: new Date(now - TICTACTOE_ABSENT_AFTER_MS).toISOString(),
      changes: { status: 'finished', winner: 'X', end_reason: 'abandoned' } as const,
    });
    const stale = claimAt(Date.now());

    // O polls: the version is unchanged, but O is no longer gone.
    await call(ctx.app, o.token, 'GET', `/${id}`);
    expect(
      await updateGameIfAbsent(ctx.db, id, before.version, o.userId, stale.seenSince, stale.changes),
    ).toBe(false);
    // O looks gone again, but X has moved since: a claim decided on the old version is refused too.
    await move(ctx.app, x.token, id, 4);
    await lastSeen(ctx.db, o.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    expect(
      await updateGameIfAbsent(ctx.db, id, before.version, o.userId, stale.seenSince, stale.changes),
    ).toBe(false);
    expect((await findGame(ctx.db, id))!).toMatchObject({ status: 'in_progress', board: '....X....' });
  });

  it('both players claiming at once (each looks gone to the other) gives exactly one winner', async () => {
    const { x, o, id } = await startGame();
    await lastSeen(ctx.db, x.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    await lastSeen(ctx.db, o.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    const [a, b] = await Promise.all([claim(ctx.app, x.token, id), claim(ctx.app, o.token, id)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? 'X' : 'O';
    expect((a.status === 200 ? b : a).body.error).toBe(T.alreadyFinished);
    const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
    expect(game).toMatchObject({ status: 'finished', winner, endReason: 'abandoned', version: 2 });
  });
});

/** Lets `n` turns of the event loop pass (with racy queries, each query takes one). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}
