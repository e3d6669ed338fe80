import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.ts';
import { createGameTestApp } from '../test-app.ts';
import { findGame, updateGameIfVersion } from './repo.ts';
import { call, join, move } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createGameTestApp({ racy: true });
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
});
