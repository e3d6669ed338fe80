import {
  expandStrokeIds,
  PICTIONARY_FILL_COST,
  PICTIONARY_MAX_CLIENT_STROKE_ID,
  PICTIONARY_MAX_SEGMENTS_PER_BATCH,
  PICTIONARY_MAX_SEGMENTS_PER_TURN,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { batch, drawAs, get, lobbyOf, segment, start } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['games/pictionary'] });
});
afterEach(async () => {
  await ctx.close();
});

async function startedGame(n: number) {
  const lobby = await lobbyOf(ctx, n);
  await start(ctx.app, lobby.players[0]!.token, lobby.id);
  return lobby;
}
const fill = (strokeId: number, over: Record<string, unknown> = {}) => ({
  type: 'fill',
  x: 500,
  y: 300,
  color: '#00ff00',
  strokeId,
  timestamp: 1,
  ...over,
});
const undo = { type: 'undo', timestamp: 1 };
const stroke = (strokeId: number, x: number) => ({
  ...batch([segment({ from: { x, y: 10 }, to: { x: x + 5, y: 20 } })]),
  strokeId,
});

describe('Pictionary drawing tools (issue 29)', () => {
  it('undo removes the drawer’s last whole stroke (every batch of it), then the one before; fills replay in order', async () => {
    const { id, players } = await startedGame(2);
    const [drawer, guesser] = [players[0]!.token, players[1]!.token];
    for (const data of [stroke(1, 10), stroke(2, 100), stroke(2, 200), fill(3), stroke(4, 300)])
      expect((await drawAs(ctx.app, drawer, id, data)).status).toBe(200);
    const drawing = async () =>
      expandStrokeIds((await get(ctx.app, guesser, id)).body.game!.drawingData!).map(
        (i) => `${i.type}:${i.strokeId}`,
      );
    expect(await drawing()).toEqual(['line:1', 'line:2', 'line:2', 'fill:3', 'line:4']);

    expect(await drawAs(ctx.app, drawer, id, undo)).toMatchObject({
      status: 200,
      body: { message: 'Undone' },
    });
    expect(await drawing()).toEqual(['line:1', 'line:2', 'line:2', 'fill:3']);
    await drawAs(ctx.app, drawer, id, undo);
    expect(await drawing()).toEqual(['line:1', 'line:2', 'line:2']);
    await drawAs(ctx.app, drawer, id, undo);
    expect(await drawing()).toEqual(['line:1']);

    // A clear is not undone: undo walks back only what followed it.
    await drawAs(ctx.app, drawer, id, { type: 'clear', timestamp: 1 });
    expect(await drawAs(ctx.app, drawer, id, undo)).toMatchObject({
      status: 409,
      body: { error: T.nothingToUndo, code: 'NOTHING_TO_UNDO' },
    });
    // A batch without a stroke id (the spec's shape) is a stroke of its own.
    await drawAs(ctx.app, drawer, id, batch());
    await drawAs(ctx.app, drawer, id, batch());
    await drawAs(ctx.app, drawer, id, undo);
    expect(await drawing()).toHaveLength(1);
  });

  it('refuses bad fills, undos and stroke ids with a 400 naming the field; only the drawer may undo or fill', async () => {
    const { id, players } = await startedGame(2);
    const drawer = players[0]!.token;
    const bad: [unknown, string][] = [
      [fill(0), 'strokeId must be a whole number from 1 to'],
      [fill(PICTIONARY_MAX_CLIENT_STROKE_ID + 1), 'strokeId must be a whole number from 1 to'],
      [fill(1.5), 'strokeId must be a whole number'],
      [{ ...fill(1), strokeId: undefined }, 'strokeId is required'],
      [fill(1, { x: 1001 }), 'x must be a number from 0 to 1000'],
      [fill(1, { y: -1 }), 'y must be a number from 0 to 600'],
      [fill(1, { color: 'green' }), 'color must look like #rrggbb'],
      [{ ...stroke(1, 10), strokeId: 'one' }, 'strokeId must be a number'],
      [{ type: 'undo' }, 'timestamp must be a number'],
      [{ type: 'redo', timestamp: 1 }, 'strokeData must be a stroke_batch, a clear, a fill or an undo'],
    ];
    for (const [strokeData, message] of bad) {
      const r = await drawAs(ctx.app, drawer, id, strokeData);
      expect(r.status, JSON.stringify(strokeData)).toBe(400);
      expect(r.body.error).toContain(message);
    }
    for (const data of [fill(1), undo])
      expect(await drawAs(ctx.app, players[1]!.token, id, data)).toMatchObject({
        status: 403,
        body: { error: T.notDrawer },
      });
  });

  it('fills and undos count against the turn’s budget, so their number per turn is bounded', async () => {
    const { id, players } = await startedGame(2);
    const drawer = players[0]!.token;
    const full = Array.from({ length: PICTIONARY_MAX_SEGMENTS_PER_BATCH }, () => segment());
    const batches = (PICTIONARY_MAX_SEGMENTS_PER_TURN - PICTIONARY_FILL_COST) / full.length;
    for (let i = 0; i < Math.floor(batches); i++)
      expect((await drawAs(ctx.app, drawer, id, batch(full))).status).toBe(200);
    const left = PICTIONARY_MAX_SEGMENTS_PER_TURN - Math.floor(batches) * full.length;
    let fills = 0;
    while ((await drawAs(ctx.app, drawer, id, fill(fills + 1))).status === 200) fills += 1;
    expect(fills).toBe(Math.floor(left / PICTIONARY_FILL_COST));
    expect(await drawAs(ctx.app, drawer, id, fill(99))).toMatchObject({
      status: 413,
      body: { code: 'DRAWING_FULL' },
    });
  });
});
