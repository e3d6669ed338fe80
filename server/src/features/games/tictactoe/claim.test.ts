import {
  TICTACTOE_ABSENT_AFTER_MS as ABSENT,
  TICTACTOE_TEXTS as T,
  TicTacToeResponse,
} from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { manualClock } from '../../../test/manual-clock.ts';
import { call, claim, join, lastSeen, move, play, X_WINS } from './test-helpers.ts';

let ctx: TestContext;
/**
 * The feature's clock stands still unless a test moves it: how long a claimer must still wait is then exact,
 * whatever time the machine takes between two requests.
 */
let clock: ReturnType<typeof manualClock>;
beforeEach(async () => {
  clock = manualClock();
  ctx = await createTestApp({}, undefined, { features: ['games/tictactoe'], clock });
});
afterEach(() => ctx.close());

async function startGame() {
  const x = await ctx.signIn({ username: 'xena' });
  const o = await ctx.signIn({ username: 'otto' });
  const first = await join(ctx.app, x.token);
  // The answer in the message when a join is refused: what it said is what a failure needs.
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const second = await join(ctx.app, o.token);
  expect(second.body, JSON.stringify(second.body)).toMatchObject({ game: { id: first.body.game!.id } });
  return { x, o, id: first.body.game!.id };
}

/** The number of seconds a 409 "still here" message says the claimer must wait. */
function secondsToWait(error: string | undefined): number {
  const m = /stay away for (\d+) more seconds?$/.exec(error ?? '');
  if (!m) throw new Error(`not a "still here" message: ${error}`);
  return Number(m[1]);
}

describe('tic-tac-toe: claiming a game the opponent left', () => {
  it('is refused while the opponent is still here, with how long until a claim is possible', async () => {
    const { x, o, id } = await startGame();
    const fresh = await claim(ctx.app, x.token, id);
    expect(fresh).toMatchObject({ status: 409, body: { success: false, code: 'OPPONENT_PRESENT' } });
    expect(secondsToWait(fresh.body.error)).toBe(ABSENT / 1000);

    // Seen 60 s ago: 30 s to go.
    await lastSeen(ctx.db, o.userId, ABSENT - 30_000, clock.now());
    const sooner = await claim(ctx.app, x.token, id);
    expect(sooner.status).toBe(409);
    expect(secondsToWait(sooner.body.error)).toBe(30);
    // 29.5 s later: still refused, rounded up to the next whole second.
    await clock.advance(29_500);
    expect(secondsToWait((await claim(ctx.app, x.token, id)).body.error)).toBe(1);

    const game = (await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!;
    expect(game).toMatchObject({ status: 'in_progress', winner: null, abandonedBy: null, version: 1 });
  });

  it('wins the game for the player who stayed once the opponent is unseen for the threshold', async () => {
    const { x, o, id } = await startGame();
    await move(ctx.app, x.token, id, 4);
    await lastSeen(ctx.db, o.userId, ABSENT + 1000, clock.now());
    // The state the stayer polls says who left: what the screen needs to offer the claim.
    expect((await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!.abandonedBy).toBe('O');

    const won = await claim(ctx.app, x.token, id);
    expect(won.status).toBe(200);
    expect(TicTacToeResponse.parse(won.body)).toMatchObject({
      message: 'Your opponent left; you win',
      game: { status: 'finished', winner: 'X', endReason: 'abandoned', abandonedBy: null, version: 3 },
    });
    expect(won.body.game!.board[4]).toBe('X');
    // Both are free again: nobody is left seated in the finished game.
    expect((await call(ctx.app, x.token, 'GET', '/current')).body.game).toBeNull();
    expect((await call(ctx.app, o.token, 'GET', '/current')).body.game).toBeNull();
  });

  it('the player who left sees the result when they come back', async () => {
    const { x, o, id } = await startGame();
    await lastSeen(ctx.db, x.userId, ABSENT + 1000, clock.now());
    expect((await claim(ctx.app, o.token, id)).status).toBe(200);

    const back = await call(ctx.app, x.token, 'GET', `/${id}`);
    expect(back.body.game).toMatchObject({ status: 'finished', winner: 'O', endReason: 'abandoned' });
    // They can neither move nor claim in it any more.
    expect(await move(ctx.app, x.token, id, 0)).toMatchObject({
      status: 409,
      body: { error: T.alreadyFinished },
    });
    expect(await claim(ctx.app, x.token, id)).toMatchObject({
      status: 409,
      body: { error: T.alreadyFinished, code: 'NOT_IN_PROGRESS' },
    });
  });

  it('a repeated claim returns the won game instead of an error', async () => {
    const { x, o, id } = await startGame();
    await lastSeen(ctx.db, o.userId, ABSENT + 1000, clock.now());
    const first = await claim(ctx.app, x.token, id);
    const again = await claim(ctx.app, x.token, id);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Win already claimed');
    expect(again.body.game).toEqual(first.body.game);
  });

  it('is refused once the opponent is back: a poll or a move counts as being there', async () => {
    const { x, o, id } = await startGame();
    await lastSeen(ctx.db, o.userId, ABSENT + 1000, clock.now());
    await call(ctx.app, o.token, 'GET', `/${id}`); // their screen polls again
    expect((await claim(ctx.app, x.token, id)).body.code).toBe('OPPONENT_PRESENT');
    expect((await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!.abandonedBy).toBeNull();

    await move(ctx.app, x.token, id, 0);
    await lastSeen(ctx.db, o.userId, ABSENT + 1000, clock.now());
    expect((await move(ctx.app, o.token, id, 4)).status).toBe(200);
    expect((await claim(ctx.app, x.token, id)).body.code).toBe('OPPONENT_PRESENT');
  });

  it('a player who was away does not look gone in the answer to their own poll', async () => {
    const { x, id } = await startGame();
    await lastSeen(ctx.db, x.userId, ABSENT + 1000, clock.now());
    expect((await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!.abandonedBy).toBeNull();
  });

  it('is refused for someone who is not a player of the game, and changes nothing', async () => {
    const { o, id } = await startGame();
    await lastSeen(ctx.db, o.userId, ABSENT + 1000, clock.now());
    const outsider = await ctx.signIn();
    expect(await claim(ctx.app, outsider.token, id)).toMatchObject({
      status: 403,
      body: { error: T.notAPlayer, code: 'FORBIDDEN' },
    });
    const game = (await call(ctx.app, o.token, 'GET', `/${id}`)).body.game!;
    expect(game).toMatchObject({ status: 'in_progress', version: 1 });
  });

  it('is refused unless the game is in progress: waiting, or already finished', async () => {
    const alone = await ctx.signIn();
    const waiting = (await join(ctx.app, alone.token)).body.game!.id;
    await lastSeen(ctx.db, alone.userId, ABSENT + 1000, clock.now());
    expect(await claim(ctx.app, alone.token, waiting)).toMatchObject({
      status: 409,
      body: { error: T.notStarted, code: 'NOT_IN_PROGRESS' },
    });
    await call(ctx.app, alone.token, 'POST', `/${waiting}/leave`);

    const { x, o, id } = await startGame();
    const end = await play(ctx.app, x.token, o.token, id, X_WINS);
    expect(await claim(ctx.app, o.token, id)).toMatchObject({
      status: 409,
      body: { error: T.alreadyFinished, code: 'NOT_IN_PROGRESS' },
    });
    expect((await call(ctx.app, o.token, 'GET', `/${id}`)).body.game).toEqual(end);
  });
});
