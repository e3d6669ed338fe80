import { randomUUID } from 'node:crypto';
import {
  TICTACTOE_TEXTS as T,
  TICTACTOE_ABSENT_AFTER_MS,
  TicTacToeCurrentResponse,
  TicTacToeResponse,
} from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { insertGame, insertSeat } from './repo.ts';
import { newGameRow } from './service.ts';
import { call, DRAW, join, leave, move, play, X_WINS } from './test-helpers.ts';

// A fresh database per test: matchmaking depends on which games wait, so tests must not share any.
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['games/tictactoe'] });
});
afterEach(() => ctx.close());

/** A waiting game created at a given time; `seated` false leaves its creator free (no seat row). */
async function seedWaitingGame(userId: string, createdAt: string, seated = true): Promise<string> {
  const id = randomUUID();
  await insertGame(ctx.db, newGameRow(id, userId, createdAt, null));
  if (seated) await insertSeat(ctx.db, userId, id, new Date().toISOString());
  return id;
}

/** Every route that acts on one game, for game `id`. */
const gameRoutes = (id: string) =>
  [
    ['GET', `/${id}`],
    ['POST', `/${id}/move`],
    ['POST', `/${id}/leave`],
    ['POST', `/${id}/rematch`],
    ['POST', `/${id}/claim`],
  ] as const;

/** Calls one of gameRoutes as `token`; a move sends a valid body, so only the id can be wrong. */
const callGameRoute = (token: string, method: 'GET' | 'POST', path: string) =>
  call(ctx.app, token, method, path, path.endsWith('move') ? { position: 0 } : undefined);

/** Two fresh players who meet in one game: x created it (player 1), o joined it. */
async function startGame() {
  const x = await ctx.signIn();
  const o = await ctx.signIn();
  const created = await join(ctx.app, x.token);
  const joined = await join(ctx.app, o.token);
  expect(joined.body.game!.id).toBe(created.body.game!.id);
  return { x, o, id: created.body.game!.id, game: joined.body.game! };
}

describe('tic-tac-toe: matchmaking', () => {
  it('creates a waiting game when nobody waits, and the next player joins it as O', async () => {
    const x = await ctx.signIn({ username: 'alice' });
    const o = await ctx.signIn({ username: 'bob' });
    const created = await join(ctx.app, x.token);
    expect(created.status).toBe(200);
    expect(TicTacToeResponse.parse(created.body).game).toMatchObject({
      status: 'waiting',
      board: ['', '', '', '', '', '', '', '', ''],
      currentPlayer: 'X',
      winner: null,
      player1: { id: x.userId, username: 'alice' },
      player2: null,
    });
    expect(created.body.message).toBe(T.waitingForOpponent);

    const joined = await join(ctx.app, o.token);
    expect(joined.body.message).toBe('Joined game');
    expect(joined.body.game).toMatchObject({
      id: created.body.game!.id,
      status: 'in_progress',
      player1: { id: x.userId, username: 'alice' },
      player2: { id: o.userId, username: 'bob' },
    });
  });

  it('joins the oldest waiting game that is not your own', async () => {
    // Through join alone at most one open game waits at a time, so two waiting games are set up directly.
    const [older, newer, me] = [await ctx.signIn(), await ctx.signIn(), await ctx.signIn()];
    const olderId = await seedWaitingGame(older.userId, '2024-01-01T00:00:00.000Z');
    await seedWaitingGame(newer.userId, '2024-01-02T00:00:00.000Z');

    const joined = await join(ctx.app, me.token);
    expect(joined.body.game).toMatchObject({
      id: olderId,
      status: 'in_progress',
      player2: { id: me.userId },
    });
  });

  it('skips your own waiting game even when it is the oldest', async () => {
    const [other, me] = [await ctx.signIn(), await ctx.signIn()];
    const mine = await seedWaitingGame(me.userId, '2024-01-01T00:00:00.000Z', false);
    const theirs = await seedWaitingGame(other.userId, '2024-01-02T00:00:00.000Z');
    // My old game is waiting but I hold no seat in it (as after a crash): I must still not join myself.
    expect((await join(ctx.app, me.token)).body.game!.id).toBe(theirs);
    expect(mine).not.toBe(theirs);
  });

  it('never pairs you with yourself and returns your one unfinished game when you join again', async () => {
    const a = await ctx.signIn();
    const first = await join(ctx.app, a.token);
    const again = await join(ctx.app, a.token);
    expect(again.body.game).toMatchObject({ id: first.body.game!.id, status: 'waiting', player2: null });
    expect(again.body.message).toBe('You are already in a game');
  });

  it('skips a waiting game whose creator has left the screen, and matches it again once they are back', async () => {
    const [gone, late, next] = [await ctx.signIn(), await ctx.signIn(), await ctx.signIn()];
    const ghost = (await join(ctx.app, gone.token)).body.game!.id;
    // The creator closed the tab: no poll, subscribe or join for longer than the presence window.
    const longAgo = new Date(Date.now() - TICTACTOE_ABSENT_AFTER_MS - 1000).toISOString();
    await ctx.db
      .updateTable('tictactoe_seats')
      .set({ seen_at: longAgo })
      .where('user_id', '=', gone.userId)
      .execute();

    const other = await join(ctx.app, late.token);
    expect(other.body.game).toMatchObject({ status: 'waiting', player1: { id: late.userId } });
    expect(other.body.game!.id).not.toBe(ghost);

    // The creator's screen polls again: their game, the oldest, is the next match.
    await call(ctx.app, gone.token, 'GET', `/${ghost}`);
    expect((await join(ctx.app, next.token)).body.game).toMatchObject({ id: ghost, status: 'in_progress' });
  });

  it('GET /current finds your unfinished game, and null once it is over', async () => {
    const { x, o, id } = await startGame();
    const current = await call(ctx.app, o.token, 'GET', '/current');
    expect(TicTacToeCurrentResponse.parse(current.body).game?.id).toBe(id);
    await play(ctx.app, x.token, o.token, id, X_WINS);
    const after = await call(ctx.app, x.token, 'GET', '/current');
    expect(after.body).toEqual({ success: true, game: null, message: 'No active game' });
  });
});

describe('tic-tac-toe: rules', () => {
  it('X moves first and turns alternate; a move out of turn is refused', async () => {
    const { x, o, id } = await startGame();
    const early = await move(ctx.app, o.token, id, 4);
    expect(early).toMatchObject({ status: 409, body: { success: false, error: T.notYourTurn } });

    const first = await move(ctx.app, x.token, id, 4);
    expect(first.status).toBe(200);
    expect(first.body.game).toMatchObject({ currentPlayer: 'O', lastMove: 4, version: 2 });
    expect(first.body.game!.board[4]).toBe('X');

    const twice = await move(ctx.app, x.token, id, 0);
    expect(twice).toMatchObject({ status: 409, body: { error: T.notYourTurn } });
  });

  it('refuses a taken cell', async () => {
    const { x, o, id } = await startGame();
    await move(ctx.app, x.token, id, 4);
    expect(await move(ctx.app, o.token, id, 4)).toMatchObject({ status: 409, body: { error: T.cellTaken } });
  });

  it('refuses moves before an opponent joined and after the end', async () => {
    const a = await ctx.signIn();
    const waiting = await join(ctx.app, a.token);
    expect(await move(ctx.app, a.token, waiting.body.game!.id, 0)).toMatchObject({
      status: 409,
      body: { error: T.notStarted },
    });
    await leave(ctx.app, a.token, waiting.body.game!.id);

    const { x, o, id } = await startGame();
    await play(ctx.app, x.token, o.token, id, X_WINS);
    expect(await move(ctx.app, o.token, id, 8)).toMatchObject({
      status: 409,
      body: { error: T.alreadyFinished },
    });
  });

  it('detects a win and who won', async () => {
    const { x, o, id } = await startGame();
    const end = await play(ctx.app, x.token, o.token, id, X_WINS);
    expect(end).toMatchObject({ status: 'finished', winner: 'X', endReason: 'win', lastMove: 2 });
    expect(end.board.slice(0, 3)).toEqual(['X', 'X', 'X']);
  });

  it('detects O winning too', async () => {
    const { x, o, id } = await startGame();
    const end = await play(ctx.app, x.token, o.token, id, [0, 3, 1, 4, 8, 5]);
    expect(end).toMatchObject({ status: 'finished', winner: 'O', endReason: 'win' });
  });

  it('detects a draw on a full board', async () => {
    const { x, o, id } = await startGame();
    const end = await play(ctx.app, x.token, o.token, id, DRAW);
    expect(end).toMatchObject({ status: 'finished', winner: 'draw', endReason: 'draw' });
    expect(end.board.every((c) => c !== '')).toBe(true);
  });

  it('a retried move returns the current state instead of an error', async () => {
    const { x, id } = await startGame();
    const first = await move(ctx.app, x.token, id, 4);
    const retry = await move(ctx.app, x.token, id, 4);
    expect(retry.status).toBe(200);
    expect(retry.body.message).toBe('Move already applied');
    expect(retry.body.game).toEqual(first.body.game);
  });

  it('frees both players once a game ends, so each can find a new one', async () => {
    const { x, o, id } = await startGame();
    await play(ctx.app, x.token, o.token, id, X_WINS);
    const next = await join(ctx.app, o.token);
    expect(next.body.game!.id).not.toBe(id);
    expect(next.body.game!.status).toBe('waiting');
  });
});

describe('tic-tac-toe: leaving', () => {
  it('leaving a waiting game cancels it', async () => {
    const a = await ctx.signIn();
    const { body } = await join(ctx.app, a.token);
    const left = await leave(ctx.app, a.token, body.game!.id);
    expect(left.status).toBe(200);
    expect(left.body.game).toMatchObject({ status: 'finished', winner: null, endReason: 'cancelled' });
    // Nobody can be matched into a cancelled game.
    const b = await ctx.signIn();
    expect((await join(ctx.app, b.token)).body.game!.id).not.toBe(body.game!.id);
  });

  it('leaving a game in progress forfeits it to the opponent', async () => {
    const { x, o, id } = await startGame();
    await move(ctx.app, x.token, id, 0);
    const left = await leave(ctx.app, x.token, id);
    expect(left.body.game).toMatchObject({ status: 'finished', winner: 'O', endReason: 'forfeit' });
    const seen = await call(ctx.app, o.token, 'GET', `/${id}`);
    expect(seen.body.game).toMatchObject({ status: 'finished', winner: 'O' });
  });

  it('leaving a finished game changes its result in nothing, and is noted (no rematch with them)', async () => {
    const { x, o, id } = await startGame();
    const end = await play(ctx.app, x.token, o.token, id, X_WINS);
    const left = await leave(ctx.app, o.token, id);
    expect(left.status).toBe(200);
    expect(left.body.game).toEqual({
      ...end,
      leftAfterEnd: ['O'],
      version: end.version + 1,
      updatedAt: left.body.game!.updatedAt,
    });
    expect(left.body.message).toBe(T.alreadyFinished);
    expect(await call(ctx.app, x.token, 'POST', `/${id}/rematch`)).toMatchObject({
      status: 409,
      body: { error: T.opponentLeftFinished('member2'), code: 'OPPONENT_LEFT' },
    });
  });
});

describe('tic-tac-toe: rematch', () => {
  it('the first request offers a new game to the opponent; the second starts it with the asker as X', async () => {
    const { x, o, id } = await startGame();
    await play(ctx.app, x.token, o.token, id, X_WINS);

    const offer = await call(ctx.app, o.token, 'POST', `/${id}/rematch`);
    expect(offer.status).toBe(200);
    const rematchId = offer.body.game!.id;
    expect(offer.body.game).toMatchObject({
      status: 'waiting',
      player1: { id: o.userId },
      invited: { id: x.userId },
      rematchOf: id,
    });
    const old = await call(ctx.app, x.token, 'GET', `/${id}`);
    expect(old.body.game!.rematch).toEqual({ gameId: rematchId, requestedBy: o.userId });

    // A third player looking for a game is not matched into the reserved rematch.
    const stranger = await ctx.signIn();
    expect((await join(ctx.app, stranger.token)).body.game!.id).not.toBe(rematchId);

    const accepted = await call(ctx.app, x.token, 'POST', `/${id}/rematch`);
    expect(accepted.body.message).toBe('Rematch started');
    expect(accepted.body.game).toMatchObject({
      id: rematchId,
      status: 'in_progress',
      player1: { id: o.userId },
      player2: { id: x.userId },
      invited: null,
    });
    expect((await move(ctx.app, o.token, rematchId, 4)).status).toBe(200); // the asker is X and moves first
  });

  it('X alternates from one rematch to the next and the series score is kept', async () => {
    const { x, o, id } = await startGame();
    await play(ctx.app, x.token, o.token, id, X_WINS); // xena wins as X
    // The previous X asks: she plays O now, otto X.
    const offer = await call(ctx.app, x.token, 'POST', `/${id}/rematch`);
    expect(offer.body.game).toMatchObject({
      status: 'waiting',
      player1: { id: o.userId },
      player2: { id: x.userId },
      invited: { id: o.userId },
    });
    const second = offer.body.game!.id;
    const started = await call(ctx.app, o.token, 'POST', `/${id}/rematch`);
    expect(started.body.game).toMatchObject({ id: second, status: 'in_progress', currentPlayer: 'X' });
    expect((await move(ctx.app, x.token, second, 0)).status).toBe(409); // xena is O now
    const end2 = await play(ctx.app, o.token, x.token, second, X_WINS); // otto wins as X
    expect(end2.series).toEqual({ wins: { [x.userId]: 1, [o.userId]: 1 }, draws: 0, games: 2 });
    // Asked by the previous O this time: she plays X again.
    await call(ctx.app, x.token, 'POST', `/${second}/rematch`);
    const third = (await call(ctx.app, o.token, 'POST', `/${second}/rematch`)).body.game!;
    expect(third).toMatchObject({
      player1: { id: x.userId },
      player2: { id: o.userId },
      status: 'in_progress',
    });
    expect(third.series).toEqual({ wins: { [x.userId]: 1, [o.userId]: 1 }, draws: 0, games: 2 });
  });

  it('refuses a rematch before the end or after a cancelled game', async () => {
    const { x, id } = await startGame();
    expect(await call(ctx.app, x.token, 'POST', `/${id}/rematch`)).toMatchObject({
      status: 409,
      body: { error: T.notFinished },
    });
    const a = await ctx.signIn();
    const { body } = await join(ctx.app, a.token);
    await leave(ctx.app, a.token, body.game!.id);
    expect(await call(ctx.app, a.token, 'POST', `/${body.game!.id}/rematch`)).toMatchObject({
      status: 409,
      body: { error: T.noOpponent },
    });
  });

  it('withdrawing the offer (leaving the rematch) clears it from the finished game', async () => {
    const { x, o, id } = await startGame();
    await play(ctx.app, x.token, o.token, id, DRAW);
    const offer = await call(ctx.app, x.token, 'POST', `/${id}/rematch`);
    await leave(ctx.app, x.token, offer.body.game!.id);
    const old = await call(ctx.app, o.token, 'GET', `/${id}`);
    expect(old.body.game!.rematch).toBeNull();
  });
});

describe('tic-tac-toe: bad input on every route', () => {
  it('refuses a position that is missing, not a number, fractional or outside 0–8', async () => {
    const { x, id } = await startGame();
    const cases: [unknown, string][] = [
      [undefined, 'position is required'],
      ['4', 'position must be a number'],
      [null, 'position must be a number'],
      [[4], 'position must be a number'],
      [1.5, 'position must be a whole number from 0 to 8'],
      [-1, 'position must be a whole number from 0 to 8'],
      [9, 'position must be a whole number from 0 to 8'],
      [1e9, 'position must be a whole number from 0 to 8'],
    ];
    for (const [position, error] of cases) {
      const r = await move(ctx.app, x.token, id, position);
      expect({ position, status: r.status, error: r.body.error }).toEqual({ position, status: 400, error });
    }
    const noBody = await ctx.app.inject({
      method: 'POST',
      url: `/api/games/tic-tac-toe/${id}/move`,
      headers: { authorization: `Bearer ${x.token}`, 'content-type': 'application/json' },
      payload: 'not json',
    });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().error).toBe('Request body is not valid JSON');
    // Nothing was applied by any of them.
    expect((await call(ctx.app, x.token, 'GET', `/${id}`)).body.game!.version).toBe(1);
  });

  it('answers 400 for a malformed game id on every :id route', async () => {
    const a = await ctx.signIn();
    for (const [method, path] of gameRoutes('not-a-uuid')) {
      const r = await callGameRoute(a.token, method, path);
      expect({ path, status: r.status, error: r.body.error }).toEqual({
        path,
        status: 400,
        error: 'Game id must be a UUID',
      });
    }
  });

  it('answers 404 for an unknown game on every :id route', async () => {
    const a = await ctx.signIn();
    const id = randomUUID();
    for (const [method, path] of gameRoutes(id)) {
      const r = await callGameRoute(a.token, method, path);
      expect({ path, status: r.status, error: r.body.error }).toEqual({
        path,
        status: 404,
        error: T.gameNotFound,
      });
    }
  });

  it("answers 403 for someone else's game on every :id route and changes nothing", async () => {
    const { id } = await startGame();
    const outsider = await ctx.signIn();
    for (const [method, path] of gameRoutes(id)) {
      const r = await callGameRoute(outsider.token, method, path);
      expect({ path, status: r.status, error: r.body.error }).toEqual({
        path,
        status: 403,
        error: T.notAPlayer,
      });
    }
  });

  it('refuses signed-out and unapproved callers on every route', async () => {
    const pending = await ctx.signIn({ is_approved: 0 });
    for (const [method, path] of [
      ['POST', '/join'],
      ['GET', '/current'],
      ...gameRoutes(randomUUID()),
    ] as const) {
      const url = `/api/games/tic-tac-toe${path}`;
      const anon = await ctx.app.inject({ method, url });
      expect({ path, status: anon.statusCode, code: anon.json().code }).toEqual({
        path,
        status: 401,
        code: 'AUTH_REQUIRED',
      });
      const r = await call(ctx.app, pending.token, method, path);
      expect({ path, status: r.status }).toEqual({ path, status: 403 });
    }
  });

  it('lets a viewer play: minigames need login only', async () => {
    const viewer = await ctx.signIn({ access_level: 'viewer' });
    expect((await join(ctx.app, viewer.token)).status).toBe(200);
  });
});
