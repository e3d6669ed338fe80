import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { call, get, join, leave, lobbyOf, settings, start } from './test-helpers.ts';

/** Issue 29: private rooms joined by their invite link, and Play again with the same group. */
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => {
  await ctx.close();
});

const privateSettings = {
  maxRounds: 1,
  maxPlayers: 4,
  wordBanks: ['food'],
  customWords: ['tea'],
  isPrivate: true,
};

describe('Pictionary private rooms', () => {
  it('Find Game never lands in a private lobby; its invite link does; refusals are clear', async () => {
    const { id, players } = await lobbyOf(ctx, 1);
    const r = await settings(ctx.app, players[0]!.token, id, privateSettings);
    expect(r.body.game).toMatchObject({ isPrivate: true });
    const stranger = await ctx.signIn();
    const found = await join(ctx.app, stranger.token);
    expect(found.body.game!.id).not.toBe(id);
    await leave(ctx.app, stranger.token, found.body.game!.id);

    const friend = await ctx.signIn();
    const byLink = await call(ctx.app, friend.token, 'POST', `/${id}/join`);
    expect(byLink).toMatchObject({ status: 200, body: { game: { id, isPrivate: true } } });
    expect(byLink.body.game!.players.map((p) => p.id)).toEqual([players[0]!.userId, friend.userId]);
    // Again: already in it.
    expect((await call(ctx.app, friend.token, 'POST', `/${id}/join`)).status).toBe(200);

    const busy = await ctx.signIn();
    const other = (await join(ctx.app, busy.token)).body.game!.id;
    expect(await call(ctx.app, busy.token, 'POST', `/${id}/join`)).toMatchObject({
      status: 409,
      body: { error: T.inAnotherGame, code: 'IN_GAME' },
    });
    await leave(ctx.app, busy.token, other);
    expect(
      (await call(ctx.app, busy.token, 'POST', '/00000000-0000-4000-8000-000000000000/join')).status,
    ).toBe(404);
    await start(ctx.app, players[0]!.token, id);
    expect(await call(ctx.app, busy.token, 'POST', `/${id}/join`)).toMatchObject({
      status: 409,
      body: { error: T.notALobby },
    });
  });

  it('a full lobby refuses its link', async () => {
    const { id, players } = await lobbyOf(ctx, 2);
    await settings(ctx.app, players[0]!.token, id, { ...privateSettings, maxPlayers: 2 });
    const late = await ctx.signIn();
    expect(await call(ctx.app, late.token, 'POST', `/${id}/join`)).toMatchObject({
      status: 409,
      body: { error: T.lobbyFull, code: 'LOBBY_FULL' },
    });
  });
});

describe('Pictionary Play again', () => {
  it('returns the same group to a new lobby with the same host and settings; later askers join it', async () => {
    const { id, players } = await lobbyOf(ctx, 3);
    const [host, b, c] = players as [(typeof players)[0], (typeof players)[0], (typeof players)[0]];
    // The hints and the drawing time carry over too (Play again once reset them to the defaults).
    await settings(ctx.app, host!.token, id, { ...privateSettings, hints: 0, drawSeconds: 40 });
    await start(ctx.app, host!.token, id);
    expect(await call(ctx.app, b!.token, 'POST', `/${id}/play-again`)).toMatchObject({
      status: 409,
      body: { error: T.notFinished },
    });
    // The game ends (as after its last round), then c leaves the finished game.
    await ctx.db.updateTable('pictionary_games').set({ status: 'finished' }).where('id', '=', id).execute();
    await ctx.db.deleteFrom('pictionary_seats').where('game_id', '=', id).execute();
    await leave(ctx.app, c!.token, id);
    expect((await get(ctx.app, host!.token, id)).body.game!.status).toBe('finished');

    const again = await call(ctx.app, b!.token, 'POST', `/${id}/play-again`);
    expect(again.status).toBe(200);
    const next = again.body.game!;
    expect(next).toMatchObject({
      status: 'lobby',
      hostId: host!.userId,
      maxRounds: 1,
      maxPlayers: 4,
      wordBanks: ['food'],
      customWordCount: 1,
      isPrivate: true,
      hints: 0,
      drawSeconds: 40,
    });
    // c left the finished game: not brought back. The host and b are, in the same order.
    expect(next.players.map((p) => p.id)).toEqual([host!.userId, b!.userId]);
    expect((await get(ctx.app, host!.token, id)).body.game!.nextGameId).toBe(next.id);
    expect((await call(ctx.app, host!.token, 'GET', '/current')).body.game!.id).toBe(next.id);
    // c asks later: joins the same lobby.
    const cAgain = await call(ctx.app, c!.token, 'POST', `/${id}/play-again`);
    expect(cAgain.body.game!.id).toBe(next.id);
    expect(cAgain.body.game!.players).toHaveLength(3);
    const stranger = await ctx.signIn();
    expect((await call(ctx.app, stranger.token, 'POST', `/${id}/play-again`)).status).toBe(403);
  });
});
