import type { PictionaryGame } from '@guildhall/common';

/** The later of two states of a game (by version); a full read wins a tie for its drawing. */
export function newerGame(held: PictionaryGame | undefined, incoming: PictionaryGame): PictionaryGame {
  if (!held || held.id !== incoming.id) return incoming;
  if (incoming.version > held.version) return incoming;
  if (incoming.version === held.version && incoming.drawingData && !held.drawingData) return incoming;
  return held;
}

/** Seconds left in the current phase by the server's clock (`offset` = server − local). */
export function secondsLeft(game: PictionaryGame, offset: number, now = Date.now()): number | null {
  if (!game.turnEndsAt) return null;
  return Math.max(0, Math.ceil((Date.parse(game.turnEndsAt) - (now + offset)) / 1000));
}

/** Players ranked by points (ties keep join order). */
export function ranking(game: PictionaryGame) {
  return game.players
    .map((p, i) => ({ ...p, points: game.playerScores[p.id] ?? 0, i }))
    .sort((a, b) => b.points - a.points || a.i - b.i);
}

/** Custom words typed one per line or separated by commas. */
export function parseCustomWords(text: string): string[] {
  return text.split(/[\n,]/);
}
