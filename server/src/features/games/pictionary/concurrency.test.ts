import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { get, guessAs, join, lobbyOf, start, wordOf } from './test-helpers.ts';

// Every query yields to the event loop, so concurrent requests interleave between read and write.
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { racy: true, features: ['games/pictionary'] });
});
afterEach(async () => {
  await ctx.close();
});

describe('Pictionary under concurrency', () => {
  it('two correct guesses at the same moment score 10 and 7, and the drawer 6', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, players } = await lobbyOf(ctx, 4);
      await start(ctx.app, players[0]!.token, id);
      const word = await wordOf(ctx.db, id);
      const [a, b] = await Promise.all([
        guessAs(ctx.app, players[1]!.token, id, word),
        guessAs(ctx.app, players[2]!.token, id, word),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const scores = (await get(ctx.app, players[3]!.token, id)).body.game!.playerScores;
      expect([scores[players[1]!.userId], scores[players[2]!.userId]].sort()).toEqual([10, 7]);
      expect(scores[players[0]!.userId]).toBe(6);
      for (const p of players)
        await ctx.app.inject({
          method: 'POST',
          url: `/api/games/pictionary/${id}/leave`,
          headers: { authorization: `Bearer ${p.token}` },
        });
    }
  });

  it('one player joining twice at once holds one seat in one lobby', async () => {
    const u = await ctx.signIn();
    const [a, b] = await Promise.all([join(ctx.app, u.token), join(ctx.app, u.token)]);
    expect(a.body.game!.id).toBe(b.body.game!.id);
    expect(a.body.game!.players).toHaveLength(1);
  });

  it('eight players joining at once fill one lobby of 8 in a definite order', async () => {
    const users = await Promise.all(Array.from({ length: 9 }, () => ctx.signIn()));
    const replies = await Promise.all(users.map((u) => join(ctx.app, u.token)));
    const ids = replies.map((r) => r.body.game!.id);
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].sort()).toEqual([1, 8]);
  });
});
