import { randomUUID } from 'node:crypto';
import {
  cleanCustomWords,
  cleanWordBanks,
  compactStrokeIds,
  containsWord,
  guessPoints,
  isCloseGuess,
  normalizeWord,
  PICTIONARY_ABSENT_AFTER_MS,
  PICTIONARY_DEFAULT_BANK,
  PICTIONARY_DRAW_SECONDS,
  PICTIONARY_DRAWER_POINTS,
  PICTIONARY_FILL_COST,
  PICTIONARY_HINTS,
  PICTIONARY_MAX_GUESSES_PER_PLAYER,
  PICTIONARY_MAX_SEGMENTS_PER_TURN,
  PICTIONARY_PLAYERS,
  PICTIONARY_ROUNDS,
  PICTIONARY_UNDO_COST,
  type PictionaryDrawBody,
  type PictionaryDrawItem,
  type PictionaryGame,
  type PictionarySegment,
  type PictionarySettingsBody,
  resolveDrawing,
  PICTIONARY_TEXTS as T,
  undoTarget,
} from '@guildhall/common';
import type { Transaction } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database } from '../../../db/schema.ts';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic, retryOptimisticOr, rollbackOn } from '../../../platform/optimistic.ts';
import { readDrawLog } from './drawing.ts';
import { type GameState, presentGame } from './present.ts';
import type { GameChanges, GameRow, PlayerRow } from './repo.ts';
import * as repo from './repo.ts';
import type { Clock, TurnTimers } from './timers.ts';
import {
  chooseChanges,
  dueAt,
  finishChanges,
  hintChanges,
  nextHost,
  nextTurnChanges,
  revealChanges,
} from './turns.ts';
import { isWordBank } from './word-banks.ts';

export type PictionaryContext = {
  db: Db;
  clock: Clock;
  random: () => number;
  timers: TurnTimers;
  /** Sends one player's own view of the game to that player's sockets (views differ: the word). */
  pushState: (userId: string, game: PictionaryGame) => void;
  /** Sends a batch of strokes (or a fill) to the game's room, except the drawer who drew them. */
  pushStrokes: (
    gameId: string,
    drawerId: string,
    turnNumber: number,
    segments: PictionaryDrawItem[],
    strokeId?: number,
  ) => void;
  pushClear: (gameId: string, turnNumber: number) => void;
  /** Tells the game's room, except the drawer, that the drawer undid stroke `strokeId`. */
  pushUndo: (gameId: string, drawerId: string, turnNumber: number, strokeId: number) => void;
  /**
   * Segments stored per `gameId:turn` as this instance knows them (read from the database the first time), so
   * the per-turn cap costs no query per batch. Another instance's batches are not counted here: the cap is a
   * guard against a runaway client, not an exact quota.
   */
  segmentCounts: Map<string, number>;
  /** When this instance started: nobody is counted gone until it has watched for the grace itself. */
  startedAt: number;
  /**
   * A new lobby was opened (channel notes, issue 44); `postedIn`: the Discord channel whose command
   * already posted its invite. Never awaited: a note must not hold up or fail the join.
   */
  lobbyOpened?: (lobby: { id: string; hostId: string }, postedIn: string | null) => void;
};

export type GameResult = { game: PictionaryGame; message: string };

/** Optimistic updates retry this often before answering 409 (only under heavy contention). */
export const MAX_ATTEMPTS = 10;
/** What an update answers once its attempts are used up. */
export const busy = () => fail('CONFLICT', T.busy);

class VersionConflict extends Error {}
class SeatTaken extends Error {}

const iso = (ms: number) => new Date(ms).toISOString();

/** Joins the oldest lobby with room, else creates one (the joiner hosts). One unfinished game per player. */
export async function joinGame(ctx: PictionaryContext, userId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const seated = await repo.findSeatGameId(ctx.db, userId);
    if (seated)
      return { game: await viewOf(ctx, seated, userId, true), message: 'You are already in a game' };

    const outcome = await rollbackOn(SeatTaken, () =>
      repo.inTransaction(ctx.db, async (trx) => {
        await repo.lockMatchmaking(trx);
        // A simultaneous join of the same user may have seated them since the check above.
        if (await repo.findSeatGameId(trx, userId)) throw new SeatTaken();
        const now = ctx.clock.now();
        const lobby = await repo.findOpenLobby(trx, iso(now - PICTIONARY_ABSENT_AFTER_MS), userId);
        if (lobby) {
          await repo.insertPlayer(trx, lobby.id, userId, lobby.maxSeq + 1, iso(now));
          const row = (await repo.findGame(trx, lobby.id))!;
          await repo.updateGameIfVersion(trx, lobby.id, row.version, { updated_at: iso(now) });
          if (!(await repo.insertSeat(trx, userId, lobby.id))) throw new SeatTaken();
          return { gameId: lobby.id, created: false };
        }
        const gameId = randomUUID();
        await repo.insertGame(trx, newGameRow(gameId, userId, iso(now)));
        await repo.insertPlayer(trx, gameId, userId, 0, iso(now));
        if (!(await repo.insertSeat(trx, userId, gameId))) throw new SeatTaken();
        return { gameId, created: true };
      }),
    );
    if (!outcome) return RETRY; // a simultaneous join of the same user won; the next round returns its game
    if (!outcome.created) await publish(ctx, outcome.gameId);
    else ctx.lobbyOpened?.({ id: outcome.gameId, hostId: userId }, null);
    return {
      game: await viewOf(ctx, outcome.gameId, userId, true),
      message: outcome.created ? 'Created a new lobby; you are the host' : 'Joined the lobby',
    };
  });
}

/** The game as the user may see it, with the turn's drawing for replay. Players only. */
export async function getGame(ctx: PictionaryContext, userId: string, gameId: string): Promise<GameResult> {
  await authorizeViewer(ctx.db, userId, gameId);
  return { game: await viewOf(ctx, gameId, userId, true), message: 'OK' };
}

export async function currentGame(ctx: PictionaryContext, userId: string) {
  const seated = await repo.findSeatGameId(ctx.db, userId);
  if (!seated) return { game: null, message: 'No active game' };
  return { game: await viewOf(ctx, seated, userId, true), message: 'OK' };
}

/** Host only, in the lobby (portal-tools §5): ranges, known banks (none → general), cleaned custom words. */
export async function updateSettings(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  body: PictionarySettingsBody,
): Promise<GameResult> {
  for (const id of body.wordBanks) if (!isWordBank(id)) throw fail('BAD_REQUEST', T.unknownWordBank(id));
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await playerState(ctx.db, userId, gameId);
    const { row } = state;
    if (row.host_id !== userId) throw fail('FORBIDDEN', T.onlyHostSettings);
    if (row.status !== 'lobby') throw fail('NOT_IN_LOBBY', T.notInLobby);
    const changes: GameChanges = {
      max_rounds: body.maxRounds,
      max_players: body.maxPlayers,
      word_banks: JSON.stringify(cleanWordBanks(body.wordBanks)),
      custom_words: JSON.stringify(cleanCustomWords(body.customWords)),
      ...(body.isPrivate === undefined ? {} : { is_private: body.isPrivate ? 1 : 0 }),
      ...(body.hints === undefined ? {} : { hint_count: body.hints }),
      ...(body.drawSeconds === undefined ? {} : { draw_seconds: body.drawSeconds }),
      updated_at: iso(ctx.clock.now()),
    };
    const applied = await apply(
      ctx,
      row,
      changes,
      async (trx) => {
        const count = (await repo.findPlayers(trx, gameId)).filter((p) => p.left_at === null).length;
        if (body.maxPlayers < count) throw fail('BAD_REQUEST', T.maxPlayersBelowCount);
      },
      // Under the join lock (taken first, as joins do), so a join cannot slip in above a lowered maximum.
      true,
    );
    if (!applied) return RETRY;
    return { game: await afterChange(ctx, gameId, userId), message: 'Settings updated' };
  });
}

/** Host only, from the lobby, with at least 2 players: round 1 starts with the first player drawing. */
export async function startGame(ctx: PictionaryContext, userId: string, gameId: string): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await playerState(ctx.db, userId, gameId);
    const { row, players } = state;
    if (row.host_id !== userId) throw fail('FORBIDDEN', T.onlyHostStart);
    if (row.status !== 'lobby') throw fail('NOT_IN_LOBBY', T.notInLobby);
    if (players.filter((p) => p.left_at === null).length < PICTIONARY_PLAYERS.min) {
      throw fail('TOO_FEW_PLAYERS', T.tooFewPlayers);
    }
    const changes = nextTurnChanges(row, players, ctx.clock.now(), ctx.random);
    if (!(await apply(ctx, row, changes))) return RETRY;
    return { game: await afterChange(ctx, gameId, userId, row), message: 'Game started' };
  });
}

/**
 * A stroke batch (or a clear) from the current drawer while the turn runs: kept for replay, then sent to the
 * other players. Appending needs no version bump: strokes never change the game's state.
 */
export async function draw(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  strokeData: PictionaryDrawBody['strokeData'],
): Promise<{ turnNumber: number; message: string }> {
  const row = await repo.findDrawState(ctx.db, gameId);
  if (!row) throw fail('NOT_FOUND', T.gameNotFound);
  if (row.drawer_id !== userId) {
    await authorizeViewer(ctx.db, userId, gameId); // a stranger learns nothing: 403 before 409
    throw fail('NOT_DRAWER', T.notDrawer);
  }
  if (row.status !== 'in_progress') throw fail('NOT_IN_PROGRESS', T.notInProgress);
  if (row.turn_phase === 'choosing') throw fail('CHOOSING', T.choosingNow);
  if (row.turn_phase !== 'drawing') throw fail('TURN_OVER', T.turnOver);
  const turn = Number(row.turn_number);
  const countKey = `${gameId}:${turn}`;
  if (strokeData.type === 'clear') {
    // A marker, not a delete: the turn's budget keeps counting what was cleared (a drawer cannot clear and
    // refill without end), and the replay starts after the last clear.
    await repo.insertStrokes(ctx.db, {
      id: randomUUID(),
      game_id: gameId,
      turn_number: turn,
      seq: nextSeq(ctx.clock),
      segments: '[]',
      segment_count: 0,
      kind: 'clear',
      stroke_id: null,
    });
    ctx.pushClear(gameId, turn);
    return { turnNumber: turn, message: 'Canvas cleared' };
  }
  // Fills and undos count against the budget too: each makes every screen repaint (docs/minigames.md).
  const cost =
    strokeData.type === 'fill'
      ? PICTIONARY_FILL_COST
      : strokeData.type === 'undo'
        ? PICTIONARY_UNDO_COST
        : strokeData.segments.length;
  const stored = ctx.segmentCounts.get(countKey) ?? (await repo.countSegments(ctx.db, gameId, turn));
  if (stored + cost > PICTIONARY_MAX_SEGMENTS_PER_TURN) {
    throw fail('DRAWING_FULL', T.drawingFull);
  }
  const seq = nextSeq(ctx.clock);
  if (strokeData.type === 'undo') {
    // The server decides which stroke goes (the drawer's last one still showing), and stores that decision,
    // so a replay and every screen remove the same one.
    const target = undoTarget(await readDrawLog(ctx.db, gameId, turn, false));
    if (target === null) throw fail('NOTHING_TO_UNDO', T.nothingToUndo);
    ctx.segmentCounts.set(countKey, stored + cost);
    await repo.insertStrokes(ctx.db, strokeRow(gameId, turn, seq, 'undo', target, '[]', cost));
    ctx.pushUndo(gameId, userId, turn, target);
    return { turnNumber: turn, message: 'Undone' };
  }
  const items: PictionaryDrawItem[] =
    strokeData.type === 'fill' ? [compactFill(strokeData)] : strokeData.segments.map(compactSegment);
  // A batch without a stroke id is a stroke of its own, named by its seq (above every id a screen uses).
  const strokeId = strokeData.strokeId ?? seq;
  ctx.segmentCounts.set(countKey, stored + cost);
  await repo.insertStrokes(
    ctx.db,
    strokeRow(
      gameId,
      turn,
      seq,
      strokeData.type === 'fill' ? 'fill' : 'stroke',
      strokeId,
      JSON.stringify(items),
      cost,
    ),
  );
  // Stored before it is sent: a player joining in between gets it in the snapshot, never misses it.
  ctx.pushStrokes(gameId, userId, turn, items, strokeId);
  return { turnNumber: turn, message: 'OK' };
}

function strokeRow(
  gameId: string,
  turn: number,
  seq: number,
  kind: 'stroke' | 'fill' | 'undo',
  strokeId: number,
  segments: string,
  count: number,
) {
  return {
    id: randomUUID(),
    game_id: gameId,
    turn_number: turn,
    seq,
    segments,
    segment_count: count,
    kind,
    stroke_id: strokeId,
  };
}

/**
 * A guess by a player who is not the drawer while the turn runs. Correct guesses score by their order in
 * the turn (10, 7, 5, then 3) and give the drawer 3; the order is decided under the game's version, so two
 * racing correct guesses score 10 and 7, never 10 and 10. When every guesser has guessed, the turn ends.
 * A wrong guess one letter away from the word tells this guesser alone that it is close.
 */
export async function guess(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  text: string,
): Promise<GameResult & { isCorrect: boolean }> {
  const typed = text.trim();
  const normalized = normalizeWord(typed);
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await playerState(ctx.db, userId, gameId);
    const { row, players, guesses } = state;
    if (row.status !== 'in_progress') throw fail('NOT_IN_PROGRESS', T.notInProgress);
    if (row.drawer_id === userId) throw fail('DRAWER', T.drawerCannotGuess);
    if (row.turn_phase === 'choosing') throw fail('CHOOSING', T.choosingNow);
    if (row.turn_phase !== 'drawing') throw fail('TURN_OVER', T.turnOver);
    if (guesses.some((g) => g.user_id === userId && g.is_correct)) {
      throw fail('ALREADY_GUESSED', T.alreadyGuessed);
    }
    // Per player: one player's flood never uses up another's guesses (issue 26).
    if (guesses.filter((g) => g.user_id === userId).length >= PICTIONARY_MAX_GUESSES_PER_PLAYER) {
      throw fail('TOO_MANY', T.tooManyGuesses);
    }

    const word = row.current_word ?? '';
    const isCorrect = normalized === word;
    const isClose = !isCorrect && isCloseGuess(normalized, word);
    const isPrivate = isClose || (!isCorrect && containsWord(typed, word));
    const previousCorrect = guesses.filter((g) => g.is_correct).length;
    const points = isCorrect ? guessPoints(previousCorrect) : 0;
    // Players counted away are not waited for; the guesser themself is here, whatever their flag says.
    const guessers = players.filter(
      (p) => p.left_at === null && p.user_id !== row.drawer_id && (!p.away || p.user_id === userId),
    );
    const now = ctx.clock.now();
    const correctSoFar = new Set(guesses.filter((g) => g.is_correct).map((g) => g.user_id));
    const everyoneGuessed =
      isCorrect && guessers.every((p) => p.user_id === userId || correctSoFar.has(p.user_id));
    const changes: GameChanges = everyoneGuessed ? revealChanges(now) : { updated_at: iso(now) };
    const applied = await apply(ctx, row, changes, async (trx) => {
      await repo.insertGuess(trx, {
        id: randomUUID(),
        game_id: gameId,
        turn_number: row.turn_number,
        user_id: userId,
        guess: typed,
        is_correct: isCorrect ? 1 : 0,
        points,
        created_at: iso(now),
        is_private: isPrivate ? 1 : 0,
      });
      if (isCorrect) {
        await repo.addScore(trx, gameId, userId, points);
        await repo.addScore(trx, gameId, row.drawer_id!, PICTIONARY_DRAWER_POINTS);
      }
    });
    if (!applied) return RETRY;
    const game = await afterChange(ctx, gameId, userId, row);
    const message = isCorrect ? T.correct : isClose ? T.close(typed) : T.wrong;
    return { game, isCorrect, message };
  });
}

/**
 * Leaving (portal-tools §4 and docs/minigames.md). In the lobby: the player goes, the host role passes on,
 * and a lobby whose last player leaves is gone. In a game: the drawer's turn ends, the host role passes on,
 * and with fewer than 2 players left the game finishes.
 */
export async function leaveGame(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
): Promise<{ game: PictionaryGame | null; message: string }> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const state = await loadState(ctx.db, gameId);
    const me = state?.players.find((p) => p.user_id === userId);
    if (!state || !me) throw state ? fail('FORBIDDEN', T.notAPlayer) : fail('NOT_FOUND', T.gameNotFound);
    const { row, players } = state;
    if (row.status === 'finished' || me.left_at !== null) {
      // Noted so that Play again does not bring back a player who went on to something else.
      if (me.left_at === null) await repo.markPlayerLeft(ctx.db, gameId, userId, iso(ctx.clock.now()));
      return { game: presentGame(state, userId, ctx.clock.now()), message: 'You left the game' };
    }
    const now = ctx.clock.now();
    const remaining = players.filter((p) => p.left_at === null && p.user_id !== userId);

    if (row.status === 'lobby' && remaining.length === 0) {
      const applied = await apply(ctx, row, { updated_at: iso(now) }, async (trx) => {
        await repo.deleteGame(trx, gameId);
      });
      if (!applied) return RETRY;
      return { game: null, message: 'Lobby closed' };
    }

    const changes = departureChanges(state, me, now);
    const applied = await apply(ctx, row, changes, async (trx) => {
      await repo.deleteSeat(trx, userId, gameId);
      if (row.status === 'lobby') await repo.deletePlayer(trx, gameId, userId);
      else await repo.markPlayerLeft(trx, gameId, userId, iso(now));
    });
    if (!applied) return RETRY;
    await afterChange(ctx, gameId, null, row);
    const after = await loadState(ctx.db, gameId);
    return {
      game: after ? presentGame(after, userId, ctx.clock.now()) : null,
      message: row.status === 'lobby' ? 'You left the lobby' : 'You left the game',
    };
  });
}

/**
 * What the game becomes when `who` leaves it (or is kicked): the host role passes on; in a running game a
 * departing drawer's turn ends (while choosing too), the turn ends when every guesser left has guessed, and
 * with fewer than 2 players here the game finishes.
 */
export function departureChanges(state: GameState, who: PlayerRow, now: number): GameChanges {
  const { row, players, guesses } = state;
  const remaining = players.filter((p) => p.left_at === null && p.user_id !== who.user_id);
  const changes: GameChanges = { updated_at: iso(now) };
  if (row.host_id === who.user_id) changes.host_id = nextHost(players, who)!;
  if (row.status === 'in_progress') {
    const guessers = remaining.filter((p) => p.user_id !== row.drawer_id && !p.away);
    const correct = new Set(guesses.filter((g) => g.is_correct).map((g) => g.user_id));
    const allGuessed = guessers.length > 0 && guessers.every((p) => correct.has(p.user_id));
    if (remaining.filter((p) => !p.away).length < PICTIONARY_PLAYERS.min)
      Object.assign(changes, finishChanges(now));
    else if (
      (row.turn_phase === 'drawing' && allGuessed) ||
      (row.turn_phase !== 'reveal' && row.drawer_id === who.user_id)
    ) {
      Object.assign(changes, revealChanges(now));
    }
  }
  return changes;
}

/**
 * The drawer picks one of the offered words (by its place in the list) while choosing: the drawing time
 * starts now. The words not picked are dropped from the game row at once.
 */
export async function chooseWord(
  ctx: PictionaryContext,
  userId: string,
  gameId: string,
  choice: number,
): Promise<GameResult> {
  return retryOptimistic(MAX_ATTEMPTS, busy, async () => {
    const { row } = await playerState(ctx.db, userId, gameId);
    if (row.status !== 'in_progress') throw fail('NOT_IN_PROGRESS', T.notInProgress);
    if (row.drawer_id !== userId) throw fail('NOT_DRAWER', T.notDrawer);
    if (row.turn_phase !== 'choosing' || !row.word_choices) throw fail('NOT_CHOOSING', T.notChoosing);
    const words = JSON.parse(row.word_choices) as string[];
    const word = words[choice];
    if (word === undefined)
      throw fail('BAD_REQUEST', `choice must be a whole number from 0 to ${words.length - 1}`);
    if (!(await apply(ctx, row, chooseChanges(row, word, ctx.clock.now(), ctx.random)))) return RETRY;
    return { game: await afterChange(ctx, gameId, userId, row), message: T.wordChosen };
  });
}

/**
 * Advances a game whose phase is due: drawing → reveal, reveal → the next turn or the end. Safe to call from
 * any instance at any time: it acts only on a due phase, and the version guard lets one caller win.
 */
export async function advanceIfDue(ctx: PictionaryContext, gameId: string): Promise<boolean> {
  // Given up under contention: the sweep (or the winner's timer) takes the game on.
  return retryOptimisticOr(
    MAX_ATTEMPTS,
    () => false,
    async () => {
      const state = await loadState(ctx.db, gameId);
      if (state?.row.status !== 'in_progress' || !state.row.turn_ends_at) return false;
      const { row, players } = state;
      const now = ctx.clock.now();
      const due = dueAt(row)!;
      if (Date.parse(due) > now) {
        ctx.timers.schedule(gameId, due); // woke early (or another instance moved it on)
        return false;
      }
      const changes = dueChanges(row, players, now, ctx.random);
      if (!(await apply(ctx, row, changes))) return RETRY;
      await afterChange(ctx, gameId, null, row);
      return true;
    },
  );
}

/**
 * What a due game becomes: choosing → drawing with one of the offered words picked at random (the drawer took
 * too long); drawing → the next hint if that is what is due, else the reveal; reveal → the next turn or the end.
 */
function dueChanges(row: GameRow, players: PlayerRow[], now: number, random: () => number): GameChanges {
  const phaseOver = Date.parse(row.turn_ends_at!) <= now;
  if (row.turn_phase === 'choosing' && phaseOver) {
    const words = JSON.parse(row.word_choices ?? '[]') as string[];
    if (words.length === 0) return revealChanges(now);
    return chooseChanges(row, words[Math.floor(random() * words.length)]!, now, random);
  }
  if (row.turn_phase === 'drawing') return phaseOver ? revealChanges(now) : hintChanges(row, now);
  return nextTurnChanges(row, players, now, random);
}

/** Advances every game that is due (after a restart, or whose timer ran on another instance). */
export async function advanceDueGames(ctx: PictionaryContext): Promise<number> {
  let advanced = 0;
  for (const id of await repo.findDueGameIds(ctx.db, iso(ctx.clock.now()))) {
    if (await advanceIfDue(ctx, id)) advanced += 1;
  }
  return advanced;
}

/** Arms this instance's timers for every game in progress (on start). */
export async function armTimers(ctx: PictionaryContext): Promise<void> {
  for (const g of await repo.findRunningGames(ctx.db)) ctx.timers.schedule(g.id, dueAt(g));
}

/** Who may watch a game's room or read it: its players (and, once finished, everyone who played). */
export async function authorizeViewer(db: Db, userId: string, gameId: string): Promise<void> {
  const row = await repo.findGame(db, gameId);
  if (!row) throw fail('NOT_FOUND', T.gameNotFound);
  const me = (await repo.findPlayers(db, gameId)).find((p) => p.user_id === userId);
  if (!me || (me.left_at !== null && row.status !== 'finished')) throw fail('FORBIDDEN', T.notAPlayer);
}

/** The user's view of a game, with the turn's drawing when asked. */
export async function viewOf(
  ctx: Pick<PictionaryContext, 'db' | 'clock'>,
  gameId: string,
  userId: string,
  withDrawing: boolean,
): Promise<PictionaryGame> {
  const state = await loadState(ctx.db, gameId);
  if (!state) throw fail('NOT_FOUND', T.gameNotFound);
  const drawing = withDrawing ? await turnDrawing(ctx.db, state.row) : undefined;
  return presentGame(state, userId, ctx.clock.now(), drawing);
}

async function turnDrawing(db: Db, row: GameRow): Promise<PictionaryDrawItem[]> {
  if (row.status !== 'in_progress') return [];
  return compactStrokeIds(resolveDrawing(await readDrawLog(db, row.id, row.turn_number, true)));
}

export async function loadState(db: Db, gameId: string): Promise<GameState | null> {
  const row = await repo.findGame(db, gameId);
  if (!row) return null;
  const running = row.status === 'in_progress';
  const [players, guesses, chat, kickVotes] = await Promise.all([
    repo.findPlayers(db, gameId),
    row.status === 'lobby' ? Promise.resolve([]) : repo.findGuesses(db, gameId, row.turn_number),
    running ? repo.findChat(db, gameId, row.turn_number) : Promise.resolve([]),
    running ? repo.findKickVotes(db, gameId) : Promise.resolve([]),
  ]);
  return { row, players, guesses, chat, kickVotes };
}

/** The state of a game the user plays in now (404 unknown, 403 not a player or left). */
export async function playerState(db: Db, userId: string, gameId: string): Promise<GameState> {
  const state = await loadState(db, gameId);
  if (!state) throw fail('NOT_FOUND', T.gameNotFound);
  const me: PlayerRow | undefined = state.players.find((p) => p.user_id === userId);
  if (!me || me.left_at !== null) throw fail('FORBIDDEN', T.notAPlayer);
  return state;
}

/** Applies `changes` at the version read (plus `extra` writes) in one transaction; false on a conflict. */
export async function apply(
  ctx: PictionaryContext,
  row: GameRow,
  changes: GameChanges,
  extra?: (trx: Transaction<Database>) => Promise<void>,
  lockMatchmakingFirst = false,
): Promise<boolean> {
  const ok = await rollbackOn(VersionConflict, () =>
    repo.inTransaction(ctx.db, async (trx) => {
      if (lockMatchmakingFirst) await repo.lockMatchmaking(trx);
      if (!(await repo.updateGameIfVersion(trx, row.id, row.version, changes))) throw new VersionConflict();
      if (changes.status === 'finished') await repo.deleteSeats(trx, row.id);
      await extra?.(trx);
      return true;
    }),
  );
  return ok ?? false;
}

/**
 * After a change: drop the drawing of past turns, arm the timer for the new phase, push every player their
 * own view. Returns the view of `viewerId` (when given).
 */
export async function afterChange(
  ctx: PictionaryContext,
  gameId: string,
  viewerId: string,
  before?: GameRow,
): Promise<PictionaryGame>;
export async function afterChange(
  ctx: PictionaryContext,
  gameId: string,
  viewerId: null,
  before?: GameRow,
): Promise<null>;
export async function afterChange(
  ctx: PictionaryContext,
  gameId: string,
  viewerId: string | null,
  before?: GameRow,
): Promise<PictionaryGame | null> {
  const state = await loadState(ctx.db, gameId);
  if (!state) return null;
  const { row } = state;
  if (before && (row.turn_number !== before.turn_number || row.status === 'finished')) {
    await repo.deleteStrokes(
      ctx.db,
      gameId,
      row.status === 'finished' ? row.turn_number : before.turn_number,
    );
  }
  ctx.timers.schedule(gameId, row.status === 'in_progress' ? dueAt(row) : null);
  const now = ctx.clock.now();
  for (const p of state.players) {
    // Players who left got their last view in the leave's answer; the rest get theirs pushed.
    if (p.left_at === null || row.status === 'finished')
      ctx.pushState(p.user_id, presentGame(state, p.user_id, now));
  }
  if (!viewerId) return null;
  return presentGame(state, viewerId, now, await turnDrawing(ctx.db, row));
}

async function publish(ctx: PictionaryContext, gameId: string): Promise<void> {
  await afterChange(ctx, gameId, null);
}

export function newGameRow(id: string, hostId: string, now: string): GameRow {
  return {
    id,
    status: 'lobby',
    host_id: hostId,
    max_rounds: PICTIONARY_ROUNDS.default,
    max_players: PICTIONARY_PLAYERS.default,
    word_banks: JSON.stringify([PICTIONARY_DEFAULT_BANK]),
    custom_words: '[]',
    round_number: 0,
    turn_number: 0,
    turn_phase: null,
    turn_ends_at: null,
    drawer_id: null,
    current_word: null,
    used_words: '[]',
    is_private: 0,
    next_game_id: null,
    word_choices: null,
    hint_count: PICTIONARY_HINTS.default,
    draw_seconds: PICTIONARY_DRAW_SECONDS.default,
    hint_order: '[]',
    hints_shown: 0,
    next_hint_at: null,
    version: 0,
    created_at: now,
    updated_at: now,
  };
}

/** Coordinates to a tenth of a canvas unit: finer is invisible on a 1000×600 canvas and only costs bytes. */
const tenth = (v: number) => Math.round(v * 10) / 10;
function compactSegment(s: PictionarySegment): PictionarySegment {
  // Fields listed: a stroke id inside a segment is the server's to set (on replay), not the client's.
  return {
    type: 'line',
    from: { x: tenth(s.from.x), y: tenth(s.from.y) },
    to: { x: tenth(s.to.x), y: tenth(s.to.y) },
    color: s.color,
    size: s.size,
    timestamp: s.timestamp,
  };
}
function compactFill(f: { x: number; y: number; color: string; timestamp: number }): PictionaryDrawItem {
  return { type: 'fill', x: tenth(f.x), y: tenth(f.y), color: f.color, timestamp: f.timestamp };
}

/**
 * Increasing numbers for stroke batches: replay order is drawing order. From the clock (in microseconds), so
 * batches stored through different instances still sort by when they were drawn.
 */
let lastSeq = 0;
function nextSeq(clock: Clock): number {
  lastSeq = Math.max(lastSeq + 1, clock.now() * 1000);
  return lastSeq;
}
