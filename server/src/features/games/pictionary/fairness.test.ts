import {
  PICTIONARY_MAX_GUESSES_PER_PLAYER,
  PICTIONARY_MAX_SEGMENTS_PER_BATCH,
  PICTIONARY_MAX_SEGMENTS_PER_TURN,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import {
  batch,
  drawAs,
  get,
  guessAs,
  leaksWord,
  lobbyOf,
  manualClock,
  segment,
  settings,
  start,
  wordOf,
} from './test-helpers.ts';

/** Issue 26: what one player can take from the others in a game (guesses, drawing size, odd text). */
let ctx: TestContext;
let clock: ReturnType<typeof manualClock>;
beforeEach(async () => {
  // The turn's clock stands still unless a test moves it: 320 guesses on a busy machine once outlasted a
  // real turn, and the last ones were answered "turn over" instead of 429.
  clock = manualClock();
  ctx = await createTestApp({}, undefined, { clock });
});
afterEach(async () => {
  await ctx.close();
});

async function startedGame(n: number) {
  const lobby = await lobbyOf(ctx, n);
  await start(ctx.app, lobby.players[0]!.token, lobby.id);
  return { ...lobby, word: await wordOf(ctx.db, lobby.id) };
}

describe('Pictionary under griefing (issue 26)', () => {
  it('two players flooding wrong guesses use up only their own allowance; a third still guesses', async () => {
    const { id, players, word } = await startedGame(4);
    const [, griefer1, griefer2, victim] = players;
    for (const griefer of [griefer1!, griefer2!]) {
      // 160 each: together more than any shared per-turn cap would allow.
      const statuses: number[] = [];
      for (let i = 0; i < 160; i++)
        statuses.push((await guessAs(ctx.app, griefer.token, id, `zz${i}`)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(PICTIONARY_MAX_GUESSES_PER_PLAYER);
      expect(statuses.filter((s) => s === 429)).toHaveLength(160 - PICTIONARY_MAX_GUESSES_PER_PLAYER);
    }
    expect(await guessAs(ctx.app, griefer1!.token, id, word)).toMatchObject({
      status: 429,
      body: { error: T.tooManyGuesses },
    });
    const r = await guessAs(ctx.app, victim!.token, id, word);
    expect(r).toMatchObject({ status: 200, body: { isCorrect: true } });
  });

  it('a close guess and a wrong guess containing the word reach their author only', async () => {
    const lobby = await lobbyOf(ctx, 3);
    const host = lobby.players[0]!;
    expect(
      (
        await settings(ctx.app, host.token, lobby.id, {
          maxRounds: 1,
          maxPlayers: 8,
          wordBanks: ['general'],
          customWords: ['snake'],
        })
      ).status,
    ).toBe(200);
    // No bank: the custom word is the only one to draw.
    await ctx.db
      .updateTable('pictionary_games')
      .set({ word_banks: '[]' })
      .where('id', '=', lobby.id)
      .execute();
    await start(ctx.app, host.token, lobby.id);
    expect(await wordOf(ctx.db, lobby.id)).toBe('snake');
    const [drawer, author, other] = lobby.players;
    // A millisecond between guesses, as between a person's guesses (the list is in time order).
    const close = await guessAs(ctx.app, author!.token, lobby.id, 'snak');
    expect(close.body).toMatchObject({ isCorrect: false, message: T.close('snak') });
    await clock.advance(1);
    const spoiler = await guessAs(ctx.app, author!.token, lobby.id, 'Is it a S-N-A-K-E?');
    expect(spoiler.body).toMatchObject({ isCorrect: false, message: T.wrong });
    await clock.advance(1);
    await guessAs(ctx.app, other!.token, lobby.id, 'a rope');

    const mine = await get(ctx.app, author!.token, lobby.id);
    expect(mine.body.game!.guesses.map((g) => [g.guess, g.isPrivate])).toEqual([
      ['snak', true],
      ['Is it a S-N-A-K-E?', true],
      ['a rope', false],
    ]);
    for (const viewer of [drawer!, other!]) {
      const seen = await get(ctx.app, viewer.token, lobby.id);
      expect(seen.body.game!.guesses.map((g) => g.guess)).toEqual(['a rope']);
      expect(seen.raw).not.toContain('S-N-A-K-E');
    }
    const guesserView = await get(ctx.app, other!.token, lobby.id);
    expect(leaksWord(guesserView.body, 'snake')).toBe(false);
    expect(guesserView.raw).not.toContain('snak');
  });

  it('clearing does not give the drawing budget back, and a full turn replays in about a megabyte', async () => {
    const { id, players } = await startedGame(2);
    const drawer = players[0]!.token;
    // Long diagonal segments with fractional coordinates, as a real pointer sends them.
    const full = Array.from({ length: PICTIONARY_MAX_SEGMENTS_PER_BATCH }, (_, i) =>
      segment({
        from: { x: 123.456789 + (i % 800), y: 234.56789 },
        to: { x: 124.987654 + (i % 800), y: 345.678912 },
        color: '#1e90ff',
        size: 15,
        timestamp: 1_732_551_234_567 + i,
      }),
    );
    for (let sent = 0; sent < PICTIONARY_MAX_SEGMENTS_PER_TURN; sent += full.length) {
      expect((await drawAs(ctx.app, drawer, id, batch(full))).status).toBe(200);
    }
    const replay = await get(ctx.app, players[1]!.token, id);
    expect(replay.body.game!.drawingData).toHaveLength(PICTIONARY_MAX_SEGMENTS_PER_TURN);
    expect(Buffer.byteLength(replay.raw)).toBeLessThan(1.2 * 1024 * 1024);

    expect((await drawAs(ctx.app, drawer, id, { type: 'clear', timestamp: 1 })).status).toBe(200);
    expect((await get(ctx.app, players[1]!.token, id)).body.game!.drawingData).toEqual([]);
    expect(await drawAs(ctx.app, drawer, id, batch())).toMatchObject({
      status: 413,
      body: { error: T.drawingFull, code: 'DRAWING_FULL' },
    });
  });

  it('the budget survives a restart of the instance (it is counted from the database, clears included)', async () => {
    const { id, players } = await startedGame(2);
    const drawer = players[0]!.token;
    const full = Array.from({ length: PICTIONARY_MAX_SEGMENTS_PER_BATCH }, () => segment());
    for (let sent = 0; sent < PICTIONARY_MAX_SEGMENTS_PER_TURN; sent += full.length) {
      await drawAs(ctx.app, drawer, id, batch(full));
      await drawAs(ctx.app, drawer, id, { type: 'clear', timestamp: 1 });
    }
    const second = await createTestApp({}, undefined, { sameDatabaseAs: ctx });
    try {
      expect((await drawAs(second.app, drawer, id, batch())).status).toBe(413);
    } finally {
      await second.app.close();
    }
  });

  it('control characters in a guess or a custom word are a clear 400 (on SQLite and PostgreSQL alike)', async () => {
    const { id, players } = await startedGame(2);
    for (const text of ['a\u0000b', 'bell\u0007', 'x\u007f', '\u202Eevil', 'c\u0085d']) {
      const r = await guessAs(ctx.app, players[1]!.token, id, text);
      // C0/C1 controls meet the platform's input guard first, format characters (U+202E) the guess's schema.
      expect(r.status, JSON.stringify(text)).toBe(400);
      expect(r.body.error, JSON.stringify(text)).toMatch(/control characters/);
    }
    const lobby = await lobbyOf(ctx, 1);
    const r = await settings(ctx.app, lobby.players[0]!.token, lobby.id, {
      maxRounds: 1,
      maxPlayers: 8,
      wordBanks: ['general'],
      customWords: ['ok', 'bad\u0000word'],
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/control characters/);
    // Letters of every script still pass.
    expect((await guessAs(ctx.app, players[1]!.token, id, 'Ünïcödé 猫 🐍')).status).toBe(200);
  });
});
