import type { PictionaryGame } from '@guildhall/common';

/** The sound cues of a game (issue 29): your turn to draw, a correct guess, the last 10 seconds. */
export type SoundCue = 'your-turn' | 'correct' | 'tick';

/** Seconds left at which the clock starts ticking (once a second down to 1). */
export const TICK_FROM_SECONDS = 10;

const drawingTurn = (g: PictionaryGame) => g.status === 'in_progress' && g.turnPhase === 'drawing';
const correctCount = (g: PictionaryGame) => g.guesses.filter((x) => x.isCorrect).length;

/**
 * The cues a change of state calls for. `prev` null (the screen just opened or reloaded) plays nothing: a
 * reload is not news. Your turn: a drawing phase begins with this player as drawer. Correct: the turn's
 * correct guesses grew (this player's or anyone's; the last one ends the turn, so the state that brings it
 * may already be the reveal or the game's end).
 */
export function cuesFor(prev: PictionaryGame | null, next: PictionaryGame, myId: string): SoundCue[] {
  if (!prev || prev.id !== next.id) return [];
  const cues: SoundCue[] = [];
  const sameTurn = prev.turnNumber === next.turnNumber;
  if (drawingTurn(next) && next.currentDrawer?.id === myId && !(sameTurn && drawingTurn(prev)))
    cues.push('your-turn');
  if (prev.status === 'in_progress' && sameTurn && correctCount(next) > correctCount(prev))
    cues.push('correct');
  return cues;
}

/**
 * The clock's tick: when the whole seconds left of a drawing phase change to one of 10 … 1. `prevLeft` is
 * what the screen showed a moment ago for the same turn (null: nothing yet, so a reload at 7 s does not tick
 * until 6).
 */
export function tickDue(prevLeft: number | null, left: number | null): boolean {
  return prevLeft !== null && left !== null && left !== prevLeft && left >= 1 && left <= TICK_FROM_SECONDS;
}
