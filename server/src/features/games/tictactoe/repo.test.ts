import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { findGame, findSeatedGame, inTransaction } from './repo.ts';
import { call, join } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['games/tictactoe'] });
});
afterEach(() => ctx.close());

describe('tic-tac-toe game reads (compiled once per database)', () => {
  it('name the players as everyone sees them: server nickname, else global name, else username', async () => {
    const x = await ctx.signIn({ username: 'xuser', global_name: 'X Global', server_nick: 'X Nick' });
    const o = await ctx.signIn({ username: 'ouser', global_name: 'O Global' });
    const id = (await join(ctx.app, x.token)).body.game!.id;
    await join(ctx.app, o.token);

    const byRoute = (await call(ctx.app, o.token, 'GET', `/${id}`)).body.game!;
    expect([byRoute.player1.username, byRoute.player2?.username]).toEqual(['X Nick', 'O Global']);

    // A change of name shows at the next read: the compiled query is reused, its result is not.
    await ctx.db.updateTable('users').set({ global_name: null }).where('discord_id', '=', o.userId).execute();
    const current = (await call(ctx.app, o.token, 'GET', '/current')).body.game!;
    expect(current.player2?.username).toBe('ouser');
  });

  it('read the same row by id and by seat, on the database and inside a transaction', async () => {
    const x = await ctx.signIn();
    const o = await ctx.signIn();
    const id = (await join(ctx.app, x.token)).body.game!.id;
    await join(ctx.app, o.token);

    const byId = await findGame(ctx.db, id);
    expect(byId).toMatchObject({ id, player1_id: x.userId, player2_id: o.userId });
    expect(await findSeatedGame(ctx.db, o.userId)).toEqual(byId);
    expect(await findGame(ctx.db, 'no-such-game')).toBeUndefined();
    expect(await findSeatedGame(ctx.db, 'no-such-user')).toBeUndefined();
    const inTrx = await inTransaction(ctx.db, async (trx) => [
      await findGame(trx, id),
      await findSeatedGame(trx, x.userId),
    ]);
    expect(inTrx).toEqual([byId, byId]);
  });
});
