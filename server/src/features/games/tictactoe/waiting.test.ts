import { TICTACTOE_WAITING_ABSENT_AFTER_MS as WAITING_GONE } from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { join, lastSeen } from './test-helpers.ts';

/** Issue 29: a player who pressed Find Game and closed the tab is not matched (it was 90 s). */
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

describe('tic-tac-toe matchmaking and a closed tab', () => {
  it('a waiting creator seen 30 s ago is passed over; one seen just now is matched', async () => {
    const gone = await ctx.signIn();
    const goneGame = (await join(ctx.app, gone.token)).body.game!.id;
    await lastSeen(ctx.db, gone.userId, 30_000);
    expect(30_000).toBeGreaterThan(WAITING_GONE);
    const newcomer = await ctx.signIn();
    const r = await join(ctx.app, newcomer.token);
    expect(r.body.game!.id).not.toBe(goneGame);
    expect(r.body.game!.status).toBe('waiting');

    const third = await ctx.signIn();
    const matched = await join(ctx.app, third.token);
    expect(matched.body.game).toMatchObject({ id: r.body.game!.id, status: 'in_progress' });
  });
});
