import { randomUUID } from 'node:crypto';
import { TICTACTOE_TEXTS as T, TicTacToeResponse } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { call, join, leave, move, play, X_WINS } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['games/tictactoe'] });
});
afterEach(() => ctx.close());

const invite = (token: string) => call(ctx.app, token, 'POST', '/invite');
const joinLink = (token: string, id: string) => call(ctx.app, token, 'POST', `/${id}/join`);

describe('tic-tac-toe: invite a friend by link (issue 29)', () => {
  it('the invite is a private waiting game; Find Game never matches into it; the link seats the friend as O', async () => {
    const host = await ctx.signIn({ username: 'host' });
    const stranger = await ctx.signIn({ username: 'stranger' });
    const friend = await ctx.signIn({ username: 'friend' });
    const made = await invite(host.token);
    expect(made.status).toBe(200);
    const game = TicTacToeResponse.parse(made.body).game;
    expect(game).toMatchObject({
      status: 'waiting',
      isPrivate: true,
      player1: { id: host.userId },
      player2: null,
    });
    // Asking again while it waits gives the same invite back.
    expect((await invite(host.token)).body.game!.id).toBe(game.id);

    const found = await join(ctx.app, stranger.token);
    expect(found.body.game!.id).not.toBe(game.id);
    expect(found.body.game!.status).toBe('waiting');

    const joined = await joinLink(friend.token, game.id);
    expect(joined.status).toBe(200);
    expect(joined.body.game).toMatchObject({
      id: game.id,
      status: 'in_progress',
      player1: { id: host.userId },
      player2: { id: friend.userId, username: 'friend' },
    });
    // The host opening their own link, or the friend opening it again, changes nothing.
    expect((await joinLink(host.token, game.id)).body.message).toBe('You are already in this game');
    expect((await joinLink(friend.token, game.id)).status).toBe(200);
    expect((await move(ctx.app, host.token, game.id, 4)).status).toBe(200);
  });

  it('an invite to a full or finished game says so; a player in another game is told to leave it first', async () => {
    const host = await ctx.signIn();
    const friend = await ctx.signIn();
    const late = await ctx.signIn();
    const id = (await invite(host.token)).body.game!.id;
    await joinLink(friend.token, id);
    expect(await joinLink(late.token, id)).toMatchObject({
      status: 409,
      body: { error: T.inviteFull, code: 'GAME_FULL' },
    });
    await play(ctx.app, host.token, friend.token, id, X_WINS);
    expect(await joinLink(late.token, id)).toMatchObject({
      status: 409,
      body: { error: T.inviteEnded, code: 'GAME_OVER' },
    });
    // A cancelled invite is over too.
    const second = (await invite(host.token)).body.game!.id;
    await leave(ctx.app, host.token, second);
    expect((await joinLink(late.token, second)).body.code).toBe('GAME_OVER');

    const third = (await invite(host.token)).body.game!.id;
    await join(ctx.app, late.token); // late now waits in a game of their own
    expect(await joinLink(late.token, third)).toMatchObject({
      status: 409,
      body: { error: T.inviteInGame, code: 'IN_GAME' },
    });
    expect(await invite(late.token)).toMatchObject({
      status: 409,
      body: { error: T.inviteWhileInGame, code: 'IN_GAME' },
    });
  });

  it('bad input: a malformed id is 400, an unknown one 404; signed-out callers are refused', async () => {
    const u = await ctx.signIn();
    expect(await joinLink(u.token, 'not-a-uuid')).toMatchObject({
      status: 400,
      body: { error: 'Game id must be a UUID' },
    });
    expect(await joinLink(u.token, randomUUID())).toMatchObject({
      status: 404,
      body: { error: T.gameNotFound },
    });
    for (const url of ['/api/games/tic-tac-toe/invite', `/api/games/tic-tac-toe/${randomUUID()}/join`]) {
      const r = await ctx.app.inject({ method: 'POST', url });
      expect(r.statusCode).toBe(401);
    }
  });

  it('of two friends opening the link at once, exactly one sits as O', async () => {
    const host = await ctx.signIn();
    const [a, b] = [await ctx.signIn(), await ctx.signIn()];
    const id = (await invite(host.token)).body.game!.id;
    const results = await Promise.all([joinLink(a.token, id), joinLink(b.token, id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('GAME_FULL');
  });
});
