import {
  REALTIME_EVENTS,
  TICTACTOE_ABSENT_AFTER_MS,
  TICTACTOE_STATE_EVENT,
  type TicTacToeStatePush,
  tictactoeRoom,
} from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import {
  afterSentinel,
  disconnected,
  nextEvent,
  record,
  subscribe,
} from '../../../platform/realtime/testing.ts';
import type { TestContext } from '../../../test/app.ts';
import { useRealtimeApp } from '../../../test/realtime-app.ts';
import { call, claim, join, lastSeen, leave, move, X_WINS } from './test-helpers.ts';

let ctx: TestContext;
const { connect } = useRealtimeApp((c) => {
  ctx = c;
});

/** A game in progress between two new players, each with a socket subscribed to its room. */
async function startWatchedGame() {
  const x = await ctx.signIn();
  const o = await ctx.signIn();
  const { body } = await join(ctx.app, x.token);
  const id = body.game!.id;
  await join(ctx.app, o.token);
  const [xs, os] = [await connect(x.token), await connect(o.token)];
  await Promise.all([subscribe(xs, tictactoeRoom(id)), subscribe(os, tictactoeRoom(id))]);
  return { x, o, id, xs, os };
}

const stateWhere = (socket: Socket, test: (p: TicTacToeStatePush) => boolean) =>
  nextEvent<TicTacToeStatePush>(socket, TICTACTOE_STATE_EVENT, test);

describe('tic-tac-toe over the realtime channel', () => {
  it('the waiting player learns at once that an opponent joined', async () => {
    const x = await ctx.signIn({ username: 'xena' });
    const o = await ctx.signIn({ username: 'otto' });
    const { body } = await join(ctx.app, x.token);
    const xs = await connect(x.token);
    expect(await subscribe(xs, tictactoeRoom(body.game!.id))).toEqual({ ok: true });

    const started = stateWhere(xs, (p) => p.game.status === 'in_progress');
    await join(ctx.app, o.token);
    expect((await started).game).toMatchObject({
      player2: { id: o.userId, username: 'otto' },
      currentPlayer: 'X',
    });
  });

  it('every move is pushed to both players, and the end of the game too', async () => {
    const { x, o, id, xs, os } = await startWatchedGame();
    const xSeen = record<TicTacToeStatePush>(xs, TICTACTOE_STATE_EVENT);
    const oSeen = record<TicTacToeStatePush>(os, TICTACTOE_STATE_EVENT);

    for (const [i, position] of X_WINS.entries()) {
      const mover = i % 2 === 0 ? x : o;
      const version = 2 + i;
      const both = Promise.all([
        stateWhere(xs, (p) => p.game.version === version),
        stateWhere(os, (p) => p.game.version === version),
      ]);
      await move(ctx.app, mover.token, id, position);
      const [forX, forO] = await both;
      expect(forX).toEqual(forO);
      expect(forX.game.board[position]).toBe(i % 2 === 0 ? 'X' : 'O');
    }
    expect(xSeen.at(-1)!.game).toMatchObject({ status: 'finished', winner: 'X' });
    expect(oSeen.map((p) => p.game.version)).toEqual([2, 3, 4, 5, 6]);
  });

  it('a refused move pushes nothing', async () => {
    const { o, id, os } = await startWatchedGame();
    const seen = record(os, TICTACTOE_STATE_EVENT);
    expect((await move(ctx.app, o.token, id, 0)).status).toBe(409);
    await afterSentinel(ctx.app.realtime, os, o.userId);
    expect(seen).toEqual([]);
  });

  it('leaving mid-game pushes the forfeit to the opponent', async () => {
    const { x, id, os } = await startWatchedGame();
    const over = stateWhere(os, (p) => p.game.status === 'finished');
    await leave(ctx.app, x.token, id);
    expect((await over).game).toMatchObject({ winner: 'O', endReason: 'forfeit' });
  });

  it('a claimed win over a player who left is pushed to both players', async () => {
    const { x, o, id, xs, os } = await startWatchedGame();
    // X's tab stopped showing up (the socket stays open only to see the result arrive).
    await lastSeen(ctx.db, x.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    const over = (s: Socket) => stateWhere(s, (p) => p.game.status === 'finished');
    const both = Promise.all([over(xs), over(os)]);
    expect((await claim(ctx.app, o.token, id)).status).toBe(200);
    for (const push of await both) {
      expect(push.game).toMatchObject({ winner: 'O', endReason: 'abandoned', version: 2 });
    }
  });

  it('a rematch offer shows up on the opponent’s finished game', async () => {
    const x = await ctx.signIn();
    const o = await ctx.signIn();
    const { body } = await join(ctx.app, x.token);
    const id = body.game!.id;
    await join(ctx.app, o.token);
    for (const [i, p] of X_WINS.entries()) await move(ctx.app, i % 2 ? o.token : x.token, id, p);
    const xs = await connect(x.token);
    await subscribe(xs, tictactoeRoom(id));
    const offered = stateWhere(xs, (p) => p.game.rematch !== null);
    const offer = await call(ctx.app, o.token, 'POST', `/${id}/rematch`);
    expect((await offered).game.rematch).toEqual({ gameId: offer.body.game!.id, requestedBy: o.userId });
  });

  it('a client that reconnects gets the full current state, including moves made while it was away', async () => {
    const x = await ctx.signIn();
    const o = await ctx.signIn();
    const { body } = await join(ctx.app, x.token);
    const id = body.game!.id;
    await join(ctx.app, o.token);
    const os = await connect(o.token, true);
    // What a client does: (re)subscribe on every connect.
    os.on('connect', () => void subscribe(os, tictactoeRoom(id)));
    await subscribe(os, tictactoeRoom(id));

    os.io.engine.close(); // the network drops
    await disconnected(os);
    await move(ctx.app, x.token, id, 4); // made while O is away: that push is lost
    const resent = await stateWhere(os, (p) => p.game.version === 2);
    expect(resent.game.board[4]).toBe('X');
    expect(os.connected).toBe(true);
  });

  it('only the players may watch a game', async () => {
    const x = await ctx.signIn();
    const o = await ctx.signIn();
    const outsider = await ctx.signIn();
    const { body } = await join(ctx.app, x.token);
    await join(ctx.app, o.token);
    const snoop = await connect(outsider.token);
    const seen = record(snoop, TICTACTOE_STATE_EVENT);
    expect(await subscribe(snoop, tictactoeRoom(body.game!.id))).toEqual({
      ok: false,
      error: 'You are not a player in this game',
      code: 'FORBIDDEN',
    });
    expect(await subscribe(snoop, 'tictactoe:not-a-uuid')).toEqual({
      ok: false,
      error: 'Game id must be a UUID',
      code: 'BAD_REQUEST',
    });
    expect(await subscribe(snoop, tictactoeRoom('00000000-0000-4000-8000-000000000000'))).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    await move(ctx.app, x.token, body.game!.id, 0);
    await afterSentinel(ctx.app.realtime, snoop, outsider.userId);
    expect(seen).toEqual([]);
    expect(snoop.connected).toBe(true);
  });

  it('the ack of a subscribe comes after the state, so a client can rely on having it', async () => {
    const x = await ctx.signIn();
    const { body } = await join(ctx.app, x.token);
    const xs = await connect(x.token);
    const seen = record<TicTacToeStatePush>(xs, TICTACTOE_STATE_EVENT);
    await subscribe(xs, tictactoeRoom(body.game!.id));
    expect(seen.map((p) => p.game.id)).toEqual([body.game!.id]);
    xs.emit(REALTIME_EVENTS.unsubscribe, { room: tictactoeRoom(body.game!.id) });
  });
});
