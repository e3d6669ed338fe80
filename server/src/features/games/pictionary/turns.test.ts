import { PICTIONARY_CHOOSE_MS, PICTIONARY_REVEAL_MS, PICTIONARY_TURN_MS } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { SWEEP_EVERY_MS } from './index.ts';
import { chooseWord, guess, joinGame, leaveGame, startGame, updateSettings, viewOf } from './service.ts';
import { manualClock, serviceContext, wordOf } from './test-helpers.ts';

let app: TestContext;
beforeEach(async () => {
  app = await createTestApp({}, undefined, { features: ['games/pictionary'] });
});
afterEach(async () => {
  await app.close();
});

/** From the end of one drawing phase's start to the next turn's drawing (chosen by the 15 s auto-pick). */
const WHOLE_TURN = PICTIONARY_TURN_MS + PICTIONARY_REVEAL_MS + PICTIONARY_CHOOSE_MS + 20;

/** A game of `n` players started through the service on a hand-driven clock. */
async function startedGame(n: number, opts: { maxRounds?: number; random?: () => number } = {}) {
  const clock = manualClock();
  const { ctx, pushes } = serviceContext(app.db, clock, opts.random);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await app.signIn()).userId);
  let gameId = '';
  for (const id of ids) gameId = (await joinGame(ctx, id)).game.id;
  await updateSettings(ctx, ids[0]!, gameId, {
    maxRounds: opts.maxRounds ?? 1,
    maxPlayers: 8,
    wordBanks: ['animals'],
    customWords: [],
  });
  await startGame(ctx, ids[0]!, gameId);
  await chooseWord(ctx, ids[0]!, gameId, 0);
  const view = () => viewOf(ctx, gameId, ids[0]!, false);
  return { ctx, clock, pushes, ids, gameId, view };
}

describe('Pictionary turns on the server clock', () => {
  it('a turn ends after 80 s with nobody connected, the word shows 4 s, then the next player chooses and draws', async () => {
    const { clock, ids, view } = await startedGame(3);
    expect(await view()).toMatchObject({
      turnPhase: 'drawing',
      turnNumber: 1,
      currentDrawer: { id: ids[0] },
    });
    await clock.advance(PICTIONARY_TURN_MS - 1);
    expect((await view()).turnPhase).toBe('drawing');
    await clock.advance(10);
    expect((await view()).turnPhase).toBe('reveal');
    await clock.advance(PICTIONARY_REVEAL_MS - 20);
    expect((await view()).turnPhase).toBe('reveal');
    await clock.advance(30);
    expect(await view()).toMatchObject({
      turnPhase: 'choosing',
      turnNumber: 2,
      currentDrawer: { id: ids[1] },
    });
    await clock.advance(PICTIONARY_CHOOSE_MS);
    expect(await view()).toMatchObject({ turnPhase: 'drawing', turnNumber: 2 });
  });

  it('every player draws once per round in join order; the game finishes after the last round; no word twice', async () => {
    // random() = 0 always takes the first word still allowed: a repeat would show at once.
    const { clock, ids, view, gameId } = await startedGame(3, { maxRounds: 2, random: () => 0 });
    const seen: { drawer: string; round: number; word: string }[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const g = await view();
      seen.push({ drawer: g.currentDrawer!.id, round: g.roundNumber, word: await wordOf(app.db, gameId) });
      await clock.advance(WHOLE_TURN);
    }
    expect(seen.map((s) => s.drawer)).toEqual([...ids, ...ids]);
    expect(seen.map((s) => s.round)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(new Set(seen.map((s) => s.word)).size).toBe(6);
    const end = await view();
    expect(end.status).toBe('finished');
    expect(clock.pending()).toBe(0);
  });

  it('a turn ends early once every guesser guessed; the next starts 4 s later', async () => {
    const { ctx, clock, ids, gameId, view } = await startedGame(3);
    const word = await wordOf(app.db, gameId);
    await guess(ctx, ids[1]!, gameId, word);
    expect((await view()).turnPhase).toBe('drawing');
    await guess(ctx, ids[2]!, gameId, word);
    expect((await view()).turnPhase).toBe('reveal');
    await clock.advance(PICTIONARY_REVEAL_MS + 10);
    expect(await view()).toMatchObject({ turnNumber: 2, currentDrawer: { id: ids[1] } });
  });

  it('a drawer who leaves ends the turn, and the next in join order draws after them', async () => {
    const { ctx, clock, ids, gameId } = await startedGame(4);
    await clock.advance(WHOLE_TURN); // player 2 draws
    await leaveGame(ctx, ids[1]!, gameId);
    const g = await viewOf(ctx, gameId, ids[0]!, false);
    expect(g.turnPhase).toBe('reveal');
    await clock.advance(PICTIONARY_REVEAL_MS + 10);
    expect((await viewOf(ctx, gameId, ids[0]!, false)).currentDrawer!.id).toBe(ids[2]);
  });

  it('each player gets their own push: the word to the drawer only', async () => {
    const { pushes, ids, gameId } = await startedGame(3);
    const word = await wordOf(app.db, gameId);
    const started = pushes.filter((p) => p.game.turnNumber === 1 && p.game.turnPhase === 'drawing');
    expect(started.find((p) => p.userId === ids[0])!.game.currentWord).toBe(word);
    for (const id of ids.slice(1)) {
      const mine = started.filter((p) => p.userId === id);
      expect(mine.length).toBeGreaterThan(0);
      for (const p of mine) expect(JSON.stringify(p.game)).not.toContain(`"${word}"`);
    }
  });
});

describe('Pictionary after a restart', () => {
  it('a second instance started after the deadline advances the due turn', async () => {
    const { ids, gameId } = await startedGame(2);
    const past = new Date(Date.now() - 1000).toISOString();
    await app.db
      .updateTable('pictionary_games')
      .set({ turn_ends_at: past })
      .where('id', '=', gameId)
      .execute();
    const second = await createTestApp({}, undefined, {
      sameDatabaseAs: app,
      features: ['games/pictionary'],
    });
    try {
      const { ctx } = serviceContext(app.db, manualClock());
      await expect.poll(async () => (await viewOf(ctx, gameId, ids[0]!, false)).turnPhase).toBe('reveal');
    } finally {
      await second.app.close();
    }
  });

  it("a turn due with no timer armed here (another instance's) is advanced by the running app's sweep", async () => {
    // The app's Pictionary runs on a hand-driven clock: the test moves it by one sweep beat instead of
    // waiting a beat out. What it proves is that the running app's sweep advances a due turn.
    await app.close();
    const appClock = manualClock();
    app = await createTestApp({}, undefined, {
      features: ['games/pictionary'],
      featureOptions: { pictionary: { clock: appClock } },
    });
    const { ids, gameId } = await startedGame(2); // started by a context whose timers never fire on their own
    await app.db
      .updateTable('pictionary_games')
      .set({ turn_ends_at: new Date(appClock.now() - 1000).toISOString() })
      .where('id', '=', gameId)
      .execute();
    const { ctx } = serviceContext(app.db, appClock);
    await appClock.advance(SWEEP_EVERY_MS - 1);
    expect((await viewOf(ctx, gameId, ids[0]!, false)).turnPhase).toBe('drawing'); // no beat yet
    await appClock.advance(1); // the beat runs, and is awaited
    expect((await viewOf(ctx, gameId, ids[0]!, false)).turnPhase).toBe('reveal');
  });
});
