import { PICTIONARY_CHOOSE_MS, PICTIONARY_REVEAL_MS, PICTIONARY_WORD_CHOICES } from '@guildhall/common';
import { hintDueAt, hintOrder } from './hints.ts';
import type { GameChanges, GameRow, PlayerRow } from './repo.ts';
import { pickWords, wordPool } from './word-banks.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The game ends now; the last word stays readable (it is revealed to everyone once finished). */
export function finishChanges(now: number): GameChanges {
  return {
    status: 'finished',
    turn_phase: null,
    turn_ends_at: null,
    word_choices: null,
    next_hint_at: null,
    updated_at: iso(now),
  };
}

/**
 * The drawing (or choosing) phase is over: the word is shown to everyone for PICTIONARY_REVEAL_MS. The words
 * not picked are dropped, so nothing but the chosen word is ever shown.
 */
export function revealChanges(now: number): GameChanges {
  return {
    turn_phase: 'reveal',
    turn_ends_at: iso(now + PICTIONARY_REVEAL_MS),
    word_choices: null,
    next_hint_at: null,
    updated_at: iso(now),
  };
}

/**
 * The drawer picked `word` (or the 15 s ran out and the server picked): the drawing time (lobby setting,
 * 80 s by default) starts now, with this turn's hint positions fixed and the first hint armed.
 */
export function chooseChanges(row: GameRow, word: string, now: number, random: () => number): GameChanges {
  const order = hintOrder(word, row.hint_count, random);
  return {
    turn_phase: 'drawing',
    turn_ends_at: iso(now + drawMs(row)),
    current_word: word,
    word_choices: null,
    hint_order: JSON.stringify(order),
    hints_shown: 0,
    next_hint_at: order.length > 0 ? iso(hintDueAt(now, drawMs(row), 1, order.length)) : null,
    updated_at: iso(now),
  };
}

/** The game's drawing time a turn (lobby setting). */
const drawMs = (row: Pick<GameRow, 'draw_seconds'>) => row.draw_seconds * 1000;

/** The next hint of the drawing phase: one more letter shown, the one after armed (if any). */
export function hintChanges(row: GameRow, now: number): GameChanges {
  const count = (JSON.parse(row.hint_order) as number[]).length;
  const shown = Math.min(count, row.hints_shown + 1);
  const drawStart = Date.parse(row.turn_ends_at!) - drawMs(row);
  return {
    hints_shown: shown,
    next_hint_at: shown < count ? iso(hintDueAt(drawStart, drawMs(row), shown + 1, count)) : null,
    updated_at: iso(now),
  };
}

/** When this game next needs the timer: its phase's end, or the next hint if that comes first. */
export function dueAt(row: { turn_ends_at: string | null; next_hint_at: string | null }): string | null {
  if (row.next_hint_at && row.turn_ends_at && row.next_hint_at < row.turn_ends_at) return row.next_hint_at;
  return row.turn_ends_at;
}

/**
 * The next turn (or the end of the game): the next player in join order after the last drawer draws; after
 * the last player of the join order the next round starts with the first; after round `max_rounds` the game
 * is finished. A game that starts (round 0, no drawer yet) begins round 1 with the first player. The turn
 * opens with the drawer choosing among three words drawn at random from the selected banks and custom words,
 * none offered before in this game (while the pool lasts); 15 s to choose.
 */
export function nextTurnChanges(
  row: GameRow,
  players: PlayerRow[],
  now: number,
  random: () => number,
): GameChanges {
  // Players counted away keep their seat but are skipped as drawers until they come back.
  const active = players.filter((p) => p.left_at === null && !p.away);
  if (active.length < 2) return finishChanges(now);
  const lastSeq = players.find((p) => p.user_id === row.drawer_id)?.seq ?? -1;
  let round = Math.max(row.round_number, 1);
  let next = active.find((p) => p.seq > lastSeq);
  if (!next) {
    round += 1;
    next = active[0]!;
  }
  if (round > row.max_rounds) return finishChanges(now);
  const used = JSON.parse(row.used_words) as string[];
  const pool = wordPool(JSON.parse(row.word_banks), JSON.parse(row.custom_words));
  const choices = pickWords(pool, used, PICTIONARY_WORD_CHOICES, random);
  return {
    status: 'in_progress',
    round_number: round,
    turn_number: row.turn_number + 1,
    turn_phase: 'choosing',
    turn_ends_at: iso(now + PICTIONARY_CHOOSE_MS),
    drawer_id: next.user_id,
    current_word: null,
    word_choices: JSON.stringify(choices),
    hint_order: '[]',
    hints_shown: 0,
    next_hint_at: null,
    used_words: JSON.stringify([...used, ...choices.filter((w) => !used.includes(w))]),
    updated_at: iso(now),
  };
}

/**
 * The player who takes over as host when `leaving` goes: the next in join order, else the first; players
 * in `gone` (counted absent) are passed over.
 */
export function nextHost(
  players: PlayerRow[],
  leaving: PlayerRow,
  gone: ReadonlySet<string> = new Set(),
): string | null {
  const others = players.filter((p) => p.left_at === null && p.user_id !== leaving.user_id);
  const here = others.filter((p) => !p.away && !gone.has(p.user_id));
  return (here.find((p) => p.seq > leaving.seq) ?? here[0] ?? others[0])?.user_id ?? null;
}
