import { PICTIONARY_REVEAL_MS, PICTIONARY_TURN_MS } from '@guildhall/common';
import type { GameChanges, GameRow, PlayerRow } from './repo.ts';
import { pickWord, wordPool } from './word-banks.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The game ends now; the last word stays readable (it is revealed to everyone once finished). */
export function finishChanges(now: number): GameChanges {
  return { status: 'finished', turn_phase: null, turn_ends_at: null, updated_at: iso(now) };
}

/** The drawing phase is over: the word is shown to everyone for PICTIONARY_REVEAL_MS. */
export function revealChanges(now: number): GameChanges {
  return { turn_phase: 'reveal', turn_ends_at: iso(now + PICTIONARY_REVEAL_MS), updated_at: iso(now) };
}

/**
 * The next turn (or the end of the game): the next player in join order after the last drawer draws; after
 * the last player of the join order the next round starts with the first; after round `max_rounds` the game
 * is finished. A game that starts (round 0, no drawer yet) begins round 1 with the first player. The word is
 * drawn at random from the selected banks and custom words, never one already used in this game.
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
  const word = pickWord(wordPool(JSON.parse(row.word_banks), JSON.parse(row.custom_words)), used, random);
  return {
    status: 'in_progress',
    round_number: round,
    turn_number: row.turn_number + 1,
    turn_phase: 'drawing',
    turn_ends_at: iso(now + PICTIONARY_TURN_MS),
    drawer_id: next.user_id,
    current_word: word,
    used_words: JSON.stringify([...used, word]),
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
