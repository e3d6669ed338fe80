import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.ts';
import { garbageHeld, holdGarbage, releaseGarbage } from './garbage-hold.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const at = (ms: number) => new Date(Date.now() + ms);

test('a backup hold lasts until its lease runs out, so a killed backup stops holding the collector', async () => {
  await holdGarbage(ctx.db, at(60_000));
  expect(await garbageHeld(ctx.db)).toBe(true);
  expect(await garbageHeld(ctx.db, at(61_000))).toBe(false);
  await releaseGarbage(ctx.db, at(60_000));
  expect(await garbageHeld(ctx.db)).toBe(false);
});

test('two backups at once: the longer hold stays when the shorter one ends', async () => {
  await holdGarbage(ctx.db, at(120_000));
  const short = at(30_000);
  await holdGarbage(ctx.db, short); // does not shorten the other backup's hold
  await releaseGarbage(ctx.db, short);
  expect(await garbageHeld(ctx.db, at(60_000))).toBe(true);
  await releaseGarbage(ctx.db, at(120_000));
  expect(await garbageHeld(ctx.db)).toBe(false);
});
