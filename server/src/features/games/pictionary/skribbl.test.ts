import {
  PICTIONARY_CHAT_PER_MINUTE,
  PICTIONARY_CHOOSE_MS,
  PICTIONARY_REVEAL_MS,
  PICTIONARY_TURN_MS,
  type PictionaryGame,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { sendChat } from './chat.ts';
import { hintCandidates, hintLimit, hintOrder, maskedWord } from './hints.ts';
import { kickPlayer } from './kick.ts';
import { chooseWord, guess, joinGame, startGame, updateSettings, viewOf } from './service.ts';
import {
  call,
  choose,
  get,
  guessAs,
  leaksWord,
  lobbyOf,
  manualClock,
  type Player,
  serviceContext,
  settings,
  startOnly,
  wordOf,
} from './test-helpers.ts';

/** Issue 29: turns like skribbl.io — word choice, letter hints, turn summary, chat among guessers, vote-kick. */
let app: TestContext;
beforeEach(async () => {
  app = await createTestApp({}, undefined, { features: ['games/pictionary'] });
});
afterEach(async () => {
  await app.close();
});

/** A started game of `n` players (the first hosts and draws first) on a hand-driven clock, still choosing. */
async function choosingGame(
  n: number,
  opts: { hints?: number; drawSeconds?: number; customWords?: string[]; banks?: string[] } = {},
) {
  const clock = manualClock();
  const { ctx, pushes } = serviceContext(app.db, clock);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await app.signIn()).userId);
  let gameId = '';
  for (const id of ids) gameId = (await joinGame(ctx, id)).game.id;
  await updateSettings(ctx, ids[0]!, gameId, {
    maxRounds: 1,
    maxPlayers: 8,
    wordBanks: ['animals'],
    customWords: [],
    ...(opts.hints === undefined ? {} : { hints: opts.hints }),
    ...(opts.drawSeconds === undefined ? {} : { drawSeconds: opts.drawSeconds }),
  });
  await startGame(ctx, ids[0]!, gameId);
  const view = (id = ids[0]!) => viewOf(ctx, gameId, id, false);
  const choices = (await view()).wordChoices!;
  return { ctx, clock, pushes, ids, gameId, view, choices };
}

/** Every push and read a player received, as JSON. */
const seenBy = (pushes: { userId: string; game: PictionaryGame }[], id: string) =>
  pushes.filter((p) => p.userId === id).map((p) => p.game);

describe('Pictionary word choice', () => {
  it('offers the drawer alone three words; the pick starts the 80 s; the two others never reach a guesser', async () => {
    const { ctx, clock, pushes, ids, gameId, view, choices } = await choosingGame(3);
    expect(choices).toHaveLength(3);
    expect(new Set(choices).size).toBe(3);
    const start = await view(ids[1]!);
    expect(start).toMatchObject({
      turnPhase: 'choosing',
      wordChoices: null,
      currentWord: null,
      wordPattern: null,
    });
    expect(Date.parse(start.turnEndsAt!) - clock.now()).toBe(PICTIONARY_CHOOSE_MS);

    await clock.advance(3000);
    const picked = await chooseWord(ctx, ids[0]!, gameId, 1);
    expect(picked.game).toMatchObject({ turnPhase: 'drawing', currentWord: choices[1], wordChoices: null });
    expect(Date.parse(picked.game.turnEndsAt!) - clock.now()).toBe(PICTIONARY_TURN_MS);
    // Only the chosen word is kept: the others are gone from the game row.
    const row = await app.db
      .selectFrom('pictionary_games')
      .selectAll()
      .where('id', '=', gameId)
      .executeTakeFirstOrThrow();
    expect(row.word_choices).toBeNull();

    await guess(ctx, ids[1]!, gameId, choices[1]!);
    await clock.advance(PICTIONARY_TURN_MS + PICTIONARY_REVEAL_MS + 20); // reveal, then the next drawer chooses
    const unpicked = [choices[0]!, choices[2]!];
    for (const id of ids.slice(1)) {
      const views = [...seenBy(pushes, id), await view(id)];
      const before = views.filter((g) => g.turnNumber === 1 && g.turnPhase !== 'reveal');
      for (const g of before)
        for (const w of choices) expect(leaksWord(g, w) && g.hasGuessed === false).toBe(false);
      // The two words not picked: never, not even at the reveal (unless this player is choosing them now).
      for (const g of views.filter((v) => v.turnNumber === 1))
        for (const w of unpicked) expect(leaksWord(g, w)).toBe(false);
    }
    expect(
      seenBy(pushes, ids[2]!).some((g) => g.turnPhase === 'reveal' && g.currentWord === choices[1]),
    ).toBe(true);
  });

  it('the server picks one of the three after 15 s with nobody connected', async () => {
    const { clock, view, choices } = await choosingGame(2);
    await clock.advance(PICTIONARY_CHOOSE_MS - 10);
    expect((await view()).turnPhase).toBe('choosing');
    await clock.advance(20);
    const g = await view();
    expect(g.turnPhase).toBe('drawing');
    expect(choices).toContain(g.currentWord);
    expect(Date.parse(g.turnEndsAt!) - Date.parse(g.serverTime)).toBeGreaterThan(PICTIONARY_TURN_MS - 100);
  });

  it('refuses a choice from anyone but the drawer, out of range, twice, and guesses or strokes while choosing', async () => {
    const { id, players } = await lobbyOf(app, 2);
    const [host, other] = players as [Player, Player];
    expect((await startOnly(app.app, host.token, id)).body.game?.turnPhase).toBe('choosing');
    expect(await choose(app.app, other.token, id, 0)).toMatchObject({ status: 403 });
    expect(await choose(app.app, host.token, id, 3)).toMatchObject({ status: 400 });
    expect(await choose(app.app, host.token, id, 'one')).toMatchObject({ status: 400 });
    expect(await call(app.app, host.token, 'POST', `/${id}/choose`, {})).toMatchObject({ status: 400 });
    expect(await guessAs(app.app, other.token, id, 'cat')).toMatchObject({
      status: 409,
      body: { error: T.choosingNow },
    });
    expect(await choose(app.app, host.token, id, 2)).toMatchObject({ status: 200 });
    expect(await choose(app.app, host.token, id, 0)).toMatchObject({
      status: 409,
      body: { error: T.notChoosing },
    });
  });
});

describe('Pictionary letter hints', () => {
  it('never reveal the last letter of a word, nor half the letters; spaces and hyphens show from the start', () => {
    expect(hintCandidates('cat')).toEqual([0, 1]);
    expect(hintCandidates('ice cream')).toEqual([0, 1, 4, 5, 6, 7]);
    expect(hintLimit('cat', 3)).toBe(1);
    expect(hintLimit('ox', 3)).toBe(0);
    expect(hintLimit('poodle', 3)).toBe(2);
    expect(hintLimit('elephant', 3)).toBe(3);
    expect(hintLimit('elephant', 0)).toBe(0);
    expect(maskedWord('t-rex a', [])).toBe('_-___ _');
    for (let i = 0; i < 50; i++) {
      const order = hintOrder('hot dog', 3, Math.random);
      expect(order.length).toBe(2);
      expect(order.every((p) => ![2, 3, 6].includes(p))).toBe(true);
    }
  });

  it('reveal letters to guessers at evenly spaced moments, pushed and on reload; the drawer keeps the word', async () => {
    const { ctx, clock, pushes, ids, gameId, view } = await choosingGame(3, { hints: 2 });
    // Long words only, so that two hints fit (a 4-letter word takes one): offered as if drawn from the banks.
    await app.db
      .updateTable('pictionary_games')
      .set({ word_choices: JSON.stringify(['elephant', 'giraffe', 'crocodile']) })
      .where('id', '=', gameId)
      .execute();
    await chooseWord(ctx, ids[0]!, gameId, 0);
    const word = await wordOf(app.db, gameId);
    const blanks = (g: PictionaryGame) => [...g.wordPattern!].filter((c) => c === '_').length;
    expect(blanks(await view(ids[1]!))).toBe(word.length);
    await clock.advance(PICTIONARY_TURN_MS / 3 - 50);
    expect(blanks(await view(ids[1]!))).toBe(word.length);
    const pushedBefore = pushes.length;
    await clock.advance(100);
    const one = await view(ids[1]!);
    expect(blanks(one)).toBe(word.length - 1);
    expect(one.currentWord).toBeNull();
    expect(
      pushes.slice(pushedBefore).some((p) => p.userId === ids[2] && blanks(p.game) === word.length - 1),
    ).toBe(true);
    await clock.advance(PICTIONARY_TURN_MS / 3);
    const two = await view(ids[2]!);
    expect(blanks(two)).toBe(word.length - 2);
    // Revealed letters are the word's, in place; the last letter stays hidden.
    for (const [i, c] of [...two.wordPattern!].entries()) if (c !== '_') expect(c).toBe(word[i]);
    expect(two.wordPattern!.at(-1)).toBe('_');
    expect((await view(ids[0]!)).currentWord).toBe(word);
    // Nothing past the masked word: no guesser's push ever held the word before the reveal.
    for (const id of ids.slice(1))
      for (const g of seenBy(pushes, id).filter((x) => x.turnPhase !== 'reveal'))
        expect(leaksWord(g, word)).toBe(false);
  });

  it('is a lobby setting from 0 to 3, default 2, validated and saved', async () => {
    const { id, players } = await lobbyOf(app, 2);
    const host = players[0]!;
    expect((await get(app.app, host.token, id)).body.game?.hints).toBe(2);
    const body = { maxRounds: 3, maxPlayers: 8, wordBanks: ['general'], customWords: [] };
    for (const hints of [4, -1, 1.5, 'two'])
      expect(await settings(app.app, host.token, id, { ...body, hints })).toMatchObject({ status: 400 });
    expect((await settings(app.app, host.token, id, { ...body, hints: 0 })).body.game?.hints).toBe(0);
    expect((await get(app.app, players[1]!.token, id)).body.game?.hints).toBe(0);
  });
});

describe('Pictionary drawing time (lobby setting)', () => {
  it('is 80 s by default, 30–180 s in steps of 10, validated, saved and shown to every player', async () => {
    const { id, players } = await lobbyOf(app, 2);
    const host = players[0]!;
    expect((await get(app.app, host.token, id)).body.game?.drawSeconds).toBe(80);
    const body = { maxRounds: 3, maxPlayers: 8, wordBanks: ['general'], customWords: [] };
    for (const [drawSeconds, error] of [
      [20, 'drawSeconds must be a whole number from 30 to 180'],
      [190, 'drawSeconds must be a whole number from 30 to 180'],
      [45, 'drawSeconds must be a multiple of 10'],
      [60.5, 'drawSeconds must be a whole number from 30 to 180'],
      ['sixty', 'drawSeconds must be a number'],
    ] as const) {
      const res = await settings(app.app, host.token, id, { ...body, drawSeconds });
      expect(res).toMatchObject({ status: 400 });
      expect(JSON.stringify(res.body)).toContain(error);
    }
    expect(
      (await settings(app.app, host.token, id, { ...body, drawSeconds: 30 })).body.game?.drawSeconds,
    ).toBe(30);
    expect((await get(app.app, players[1]!.token, id)).body.game?.drawSeconds).toBe(30);
    // Left out, it stays as it was.
    expect((await settings(app.app, host.token, id, body)).body.game?.drawSeconds).toBe(30);
  });

  it('a 30 s turn ends after 30 s, and its two hints come at 10 s and 20 s', async () => {
    const { ctx, clock, ids, gameId, view } = await choosingGame(3, { hints: 2, drawSeconds: 30 });
    await app.db
      .updateTable('pictionary_games')
      .set({ word_choices: JSON.stringify(['elephant', 'giraffe', 'crocodile']) })
      .where('id', '=', gameId)
      .execute();
    const picked = await chooseWord(ctx, ids[0]!, gameId, 0);
    expect(Date.parse(picked.game.turnEndsAt!) - clock.now()).toBe(30_000);
    const blanks = async () => [...(await view(ids[1]!)).wordPattern!].filter((c) => c === '_').length;
    const all = await blanks();
    await clock.advance(10_000 - 50);
    expect(await blanks()).toBe(all);
    await clock.advance(100);
    expect(await blanks()).toBe(all - 1);
    await clock.advance(10_000);
    expect(await blanks()).toBe(all - 2);
    await clock.advance(10_000);
    expect((await view(ids[1]!)).turnPhase).toBe('reveal');
  });
});

describe('Pictionary turn summary', () => {
  it('at the reveal lists the points each player gained this turn, 0 for those who gained none', async () => {
    const { ctx, clock, ids, gameId, view } = await choosingGame(4);
    await chooseWord(ctx, ids[0]!, gameId, 0);
    const word = await wordOf(app.db, gameId);
    expect((await view()).turnSummary).toBeNull();
    await guess(ctx, ids[2]!, gameId, word);
    await guess(ctx, ids[1]!, gameId, word);
    await guess(ctx, ids[3]!, gameId, 'nope');
    await clock.advance(PICTIONARY_TURN_MS + 10); // the turn runs out: the reveal
    for (const id of ids) {
      const g = await view(id);
      expect(g.turnPhase).toBe('reveal');
      expect(g.turnSummary!.map((s) => [s.playerId, s.points])).toEqual([
        [ids[2], 10],
        [ids[1], 7],
        [ids[0], 6],
        [ids[3], 0],
      ]);
    }
  });
});

describe('Pictionary chat among players who guessed', () => {
  it('reaches the drawer and players who guessed, never a guesser (pushes and reads)', async () => {
    const { ctx, clock, pushes, ids, gameId, view } = await choosingGame(4);
    await chooseWord(ctx, ids[0]!, gameId, 0);
    const word = await wordOf(app.db, gameId);
    const [drawer, solver, late, never] = ids as [string, string, string, string];
    await expect(sendChat(ctx, late, gameId, 'hello')).rejects.toMatchObject({ statusCode: 403 });
    await guess(ctx, solver, gameId, word);
    const secret = 'zebra stripes were a nice touch';
    await sendChat(ctx, solver, gameId, secret);
    await clock.advance(5);
    await sendChat(ctx, drawer, gameId, 'thanks');
    expect((await view(drawer)).chat.map((c) => c.text)).toEqual([secret, 'thanks']);
    expect((await view(late)).chat).toEqual([]);
    await guess(ctx, late, gameId, word); // joins the chat and sees what was said
    expect((await view(late)).chat.map((c) => c.text)).toEqual([secret, 'thanks']);
    for (const g of [...seenBy(pushes, never), await view(never)]) {
      expect(g.chat).toEqual([]);
      expect(JSON.stringify(g)).not.toContain('zebra stripes');
    }
  });

  it('refuses bad text (400) and is rate limited per member', async () => {
    const { id, players } = await lobbyOf(app, 2);
    const [host, other] = players as [Player, Player];
    await startOnly(app.app, host.token, id);
    const chat = (token: string, text: unknown) => call(app.app, token, 'POST', `/${id}/chat`, { text });
    expect(await chat(other.token, 'hi')).toMatchObject({ status: 409 }); // still choosing
    await choose(app.app, host.token, id, 0);
    for (const bad of ['', '   ', 'x'.repeat(101), 'a\u0007b', 'a\u202Eb', 42])
      expect(await chat(host.token, bad)).toMatchObject({ status: 400 });
    expect(await chat(other.token, 'hi')).toMatchObject({ status: 403, body: { error: T.notGuessedYet } });
    let limited = 0;
    for (let i = 0; i < PICTIONARY_CHAT_PER_MINUTE + 2; i++)
      if ((await chat(host.token, `m${i}`)).status === 429) limited++;
    expect(limited).toBeGreaterThan(0);
  });
});

describe('Pictionary vote-kick', () => {
  it('kicks once a majority of the other present players voted; a kicked drawer ends the turn; no way back', async () => {
    const { ctx, ids, gameId, view } = await choosingGame(4);
    await chooseWord(ctx, ids[0]!, gameId, 0);
    const [drawer, a, b, c] = ids as [string, string, string, string];
    const first = await kickPlayer(ctx, a, gameId, drawer);
    expect(first.game.kickVotes).toEqual([{ playerId: drawer, votes: 1, needed: 2, byMe: true }]);
    expect((await view(b)).kickVotes).toEqual([{ playerId: drawer, votes: 1, needed: 2, byMe: false }]);
    await expect(kickPlayer(ctx, a, gameId, drawer)).rejects.toMatchObject({ statusCode: 409 });
    await expect(kickPlayer(ctx, a, gameId, a)).rejects.toMatchObject({ statusCode: 400 });
    const second = await kickPlayer(ctx, b, gameId, drawer);
    expect(second.game.players.map((p) => p.id)).toEqual([a, b, c]);
    expect(second.game.turnPhase).toBe('reveal');
    await expect(viewOf(ctx, gameId, c, false)).resolves.toMatchObject({ hostId: a });
    await expect(guess(ctx, drawer, gameId, 'x')).rejects.toMatchObject({ statusCode: 403 });
    // Not back into that game by Find Game (it runs; a new lobby) nor later by anything else.
    expect((await joinGame(ctx, drawer)).game.id).not.toBe(gameId);
  });

  it('in the lobby the host removes a player, who cannot come back by the link or Find Game', async () => {
    const { id, players } = await lobbyOf(app, 3);
    const [host, guest, third] = players as [Player, Player, Player];
    const kick = (token: string, playerId: unknown) =>
      call(app.app, token, 'POST', `/${id}/kick`, { playerId });
    expect(await kick(guest.token, third.userId)).toMatchObject({
      status: 403,
      body: { error: T.onlyHostKick },
    });
    expect(await kick(host.token, 42)).toMatchObject({ status: 400 });
    expect(await kick(host.token, '')).toMatchObject({ status: 400 });
    expect(await kick(host.token, 'nobody')).toMatchObject({ status: 404 });
    expect(await kick(host.token, host.userId)).toMatchObject({ status: 400 });
    const r = await kick(host.token, guest.userId);
    expect(r.status).toBe(200);
    expect(r.body.game!.players.map((p) => p.id)).toEqual([host.userId, third.userId]);
    expect(await get(app.app, guest.token, id)).toMatchObject({ status: 403 });
    expect(await call(app.app, guest.token, 'POST', `/${id}/join`)).toMatchObject({
      status: 403,
      body: { error: T.kickedFromGame },
    });
    const found = await call(app.app, guest.token, 'POST', '/join');
    expect(found.body.game!.id).not.toBe(id);
  });
});
