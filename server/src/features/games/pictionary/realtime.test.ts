import {
  type ClientEventAck,
  PICTIONARY_EVENTS,
  type PictionaryGame,
  type PictionaryStrokesPush,
  pictionaryRoom,
} from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { nextEvent, record, subscribe } from '../../../platform/realtime/testing.ts';
import type { TestContext } from '../../../test/app.ts';
import { useRealtimeApp } from '../../../test/realtime-app.ts';
import { socketsInGameRooms } from './room.ts';
import { batch, drawAs, get, guessAs, leaksWord, lobbyOf, segment, start, wordOf } from './test-helpers.ts';

let ctx: TestContext;
const { connect } = useRealtimeApp((c) => {
  ctx = c;
});

type StatePush = { game: PictionaryGame };

describe('Pictionary over the realtime channel', () => {
  it('strokes reach the other players (not the drawer); a late subscriber gets the drawing replayed', async () => {
    const { id, players } = await lobbyOf(ctx, 3);
    await start(ctx.app, players[0]!.token, id);
    const [ds, g1] = [await connect(players[0]!.token), await connect(players[1]!.token)];
    await Promise.all([subscribe(ds, pictionaryRoom(id)), subscribe(g1, pictionaryRoom(id))]);
    const drawerGot = record(ds, PICTIONARY_EVENTS.strokes);
    const arrived = nextEvent<PictionaryStrokesPush>(g1, PICTIONARY_EVENTS.strokes);
    const seg = segment({ from: { x: 100, y: 100 }, to: { x: 900, y: 500 }, color: '#00ff00' });
    await drawAs(ctx.app, players[0]!.token, id, batch([seg]));
    expect(await arrived).toMatchObject({ gameId: id, turnNumber: 1, segments: [seg] });

    const late = await connect(players[2]!.token);
    const snapshot = nextEvent<StatePush>(late, PICTIONARY_EVENTS.state);
    await subscribe(late, pictionaryRoom(id));
    expect((await snapshot).game.drawingData).toEqual([{ ...seg, strokeId: expect.any(Number) }]);
    // A sentinel after the strokes: a clear reaches the drawer too, and nothing of its own came before it.
    const cleared = nextEvent(ds, PICTIONARY_EVENTS.clear);
    await drawAs(ctx.app, players[0]!.token, id, { type: 'clear', timestamp: 2 });
    await cleared;
    expect(drawerGot).toEqual([]);
  });

  it('the drawer may send strokes over the socket, with the same rules as POST /draw', async () => {
    const { id, players } = await lobbyOf(ctx, 2);
    await start(ctx.app, players[0]!.token, id);
    const [ds, gs] = [await connect(players[0]!.token), await connect(players[1]!.token)];
    await Promise.all([subscribe(ds, pictionaryRoom(id)), subscribe(gs, pictionaryRoom(id))]);
    const send = (s: Socket, body: unknown) =>
      s.timeout(3000).emitWithAck(PICTIONARY_EVENTS.draw, body) as Promise<
        ClientEventAck<typeof PICTIONARY_EVENTS.draw>
      >;
    const seg = segment({ color: '#0000ff' });
    const arrived = nextEvent<PictionaryStrokesPush>(gs, PICTIONARY_EVENTS.strokes);
    expect(await send(ds, { gameId: id, strokeData: batch([seg]) })).toEqual({
      ok: true,
      turnNumber: 1,
      message: 'OK',
    });
    expect((await arrived).segments).toEqual([seg]);
    expect(await send(gs, { gameId: id, strokeData: batch() })).toMatchObject({
      ok: false,
      code: 'NOT_DRAWER',
    });
    expect(await send(ds, { gameId: id, strokeData: batch([segment({ size: 99 })]) })).toMatchObject({
      ok: false,
      error: 'size must be a whole number from 1 to 15',
      code: 'BAD_REQUEST',
    });
    expect(await send(ds, { gameId: 'nope', strokeData: batch() })).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
    });
    expect(await send(ds, 'junk')).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect((await get(ctx.app, players[1]!.token, id)).body.game!.drawingData).toEqual([
      { ...seg, strokeId: expect.any(Number) },
    ]);
  });

  it('state pushes are per player: a guesser never receives the word before the turn ends', async () => {
    const { id, players } = await lobbyOf(ctx, 3);
    const gs = await connect(players[1]!.token);
    const pushes = record<StatePush>(gs, PICTIONARY_EVENTS.state);
    await subscribe(gs, pictionaryRoom(id));
    const started = nextEvent<StatePush>(gs, PICTIONARY_EVENTS.state, (p) => p.game.status === 'in_progress');
    await start(ctx.app, players[0]!.token, id);
    await started;
    const word = await wordOf(ctx.db, id);
    await guessAs(ctx.app, players[2]!.token, id, word);
    const revealed = nextEvent<StatePush>(gs, PICTIONARY_EVENTS.state, (p) => p.game.turnPhase === 'reveal');
    await guessAs(ctx.app, players[1]!.token, id, word);
    expect((await revealed).game.currentWord).toBe(word);
    const before = pushes.filter((p) => p.game.turnPhase !== 'reveal');
    expect(before.length).toBeGreaterThan(1);
    for (const p of before) {
      expect(p.game.currentWord).toBeNull();
      expect(leaksWord(p, word)).toBe(false);
    }
  });
});

describe('Pictionary presence over the realtime channel', () => {
  it('the presence beat sees whoever has a socket in a game room here, and no longer once it closed', async () => {
    const { id, players } = await lobbyOf(ctx, 2);
    const host = await connect(players[0]!.token);
    await subscribe(host, pictionaryRoom(id));
    expect(socketsInGameRooms(ctx.app.realtime).get(id)).toEqual([players[0]!.userId]);
    const guest = await connect(players[1]!.token);
    await subscribe(guest, pictionaryRoom(id));
    expect(new Set(socketsInGameRooms(ctx.app.realtime).get(id))).toEqual(
      new Set([players[0]!.userId, players[1]!.userId]),
    );
    const gone = new Promise((resolve) => host.once('disconnect', resolve));
    host.disconnect();
    await gone;
    await expect.poll(() => socketsInGameRooms(ctx.app.realtime).get(id)).toEqual([players[1]!.userId]);
  });
});
