import { PICTIONARY_ABSENT_AFTER_MS } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { dropAbsent, noteSeen } from './presence.ts';
import { chooseWord, guess, joinGame, startGame, viewOf } from './service.ts';
import { manualClock, serviceContext, wordOf } from './test-helpers.ts';

/** Issue 29: players who closed the tab stop holding up the lobby and the turns; those who return keep their seat. */
let app: TestContext;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.close();
});

const GRACE = PICTIONARY_ABSENT_AFTER_MS;

async function setup(n: number) {
  const clock = manualClock();
  const { ctx, pushes } = serviceContext(app.db, clock);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await app.signIn()).userId);
  let gameId = '';
  for (const id of ids) gameId = (await joinGame(ctx, id)).game.id;
  // Sockets in the room of those still here, as the presence beat sees them.
  const here = (...who: string[]) => noteSeen(ctx, new Map([[gameId, who]]));
  const view = (as = ids[0]!) => viewOf(ctx, gameId, as, false);
  return { ctx, clock, pushes, ids, gameId, here, view };
}

describe('Pictionary presence in the lobby', () => {
  it('a host gone longer than the grace is dropped, the next player hosts, and a newcomer joins that lobby', async () => {
    const { ctx, clock, ids, gameId, here, view } = await setup(3);
    const [host, second, third] = ids as [string, string, string];
    await clock.advance(GRACE / 2);
    await here(second, third);
    await clock.advance(GRACE / 2);
    expect(await dropAbsent(ctx)).toBe(0); // the host is not gone yet: exactly at the grace
    await clock.advance(1);
    expect(await dropAbsent(ctx)).toBe(1);
    const after = await view(second);
    expect(after.hostId).toBe(second);
    expect(after.players.map((p) => p.id)).toEqual([second, third]);
    const newcomer = (await app.signIn()).userId;
    const joined = await joinGame(ctx, newcomer);
    expect(joined.game.id).toBe(gameId);
    expect((await startGame(ctx, second, gameId)).game.status).toBe('in_progress');
    expect(host).not.toBe(second);
  });

  it('Find Game never puts anyone in a lobby whose host is gone, even before the sweep ran', async () => {
    const { ctx, clock, ids, gameId, here } = await setup(2);
    await clock.advance(GRACE / 2);
    await here(ids[1]!); // only the guest is still here
    await clock.advance(GRACE / 2 + 1);
    const newcomer = (await app.signIn()).userId;
    const r = await joinGame(ctx, newcomer);
    expect(r.game.id).not.toBe(gameId);
    expect(r.game.hostId).toBe(newcomer);
  });

  it('a lobby everyone left is deleted; nobody is dropped before this instance watched for one grace', async () => {
    const { ctx, clock, gameId } = await setup(2);
    await clock.advance(GRACE + 1);
    // A fresh instance (started now) does not count anyone gone yet.
    const fresh = serviceContext(app.db, clock).ctx;
    expect(await dropAbsent(fresh)).toBe(0);
    expect(await dropAbsent(ctx)).toBe(1);
    await expect(viewOf(ctx, gameId, 'x', false)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('Pictionary presence in a running game', () => {
  async function running(n: number) {
    const s = await setup(n);
    await startGame(s.ctx, s.ids[0]!, s.gameId);
    await chooseWord(s.ctx, s.ids[0]!, s.gameId, 0);
    return { ...s, word: await wordOf(app.db, s.gameId) };
  }

  it('a guesser gone longer than the grace no longer counts: the turn ends once every present player guessed', async () => {
    const { ctx, clock, ids, gameId, here, view, word } = await running(3);
    const [drawer, stays, leaves] = ids as [string, string, string];
    await clock.advance(GRACE / 2);
    await here(drawer, stays);
    await clock.advance(GRACE / 2 + 1);
    expect(await dropAbsent(ctx)).toBe(1);
    expect((await view()).awayIds).toEqual([leaves]);
    const r = await guess(ctx, stays, gameId, word);
    expect(r.game.turnPhase).toBe('reveal');
  });

  it("an absent drawer's turn ends, the next turn skips them, and back again they keep seat and points", async () => {
    const { ctx, clock, ids, gameId, here, view, word } = await running(3);
    const [drawer, g1, g2] = ids as [string, string, string];
    await guess(ctx, g1, gameId, word); // the drawer scores 3 before going
    await clock.advance(GRACE / 2);
    await here(g1, g2);
    await clock.advance(GRACE / 2 + 1);
    await dropAbsent(ctx);
    expect(await view(g1)).toMatchObject({ turnPhase: 'reveal', awayIds: [drawer] });
    await here(g1, g2);
    await clock.advance(5_000); // the reveal ends: g1 draws next
    expect(await view(g1)).toMatchObject({ turnPhase: 'choosing', currentDrawer: { id: g1 } });
    await here(drawer, g1, g2);
    const back = await view(drawer);
    expect(back.awayIds).toEqual([]);
    expect(back.players.map((p) => p.id)).toEqual(ids);
    expect(back.playerScores[drawer]).toBe(3);
  });

  it('with fewer than 2 players here the game finishes', async () => {
    const { ctx, clock, ids, here, view } = await running(2);
    await clock.advance(GRACE / 2);
    await here(ids[0]!);
    await clock.advance(GRACE / 2 + 1);
    await dropAbsent(ctx);
    expect((await view()).status).toBe('finished');
  });
});
