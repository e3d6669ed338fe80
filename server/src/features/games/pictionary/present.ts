import { type PictionaryDrawItem, type PictionaryGame, wordPattern } from '@guildhall/common';
import type { GameRow, GuessRow, PlayerRow } from './repo.ts';

/** Everything the presenter needs about a game: its row, its players, this turn's guesses. */
export type GameState = { row: GameRow; players: PlayerRow[]; guesses: GuessRow[] };

/**
 * The game as `viewerId` may see it (portal-tools §3). This is the ONLY reader of `current_word`: the word
 * goes to the drawer, and to everyone once the turn is over (reveal) or the game has finished. Another
 * player's correct guess shows without its text while the turn runs; custom words reach the host in the
 * lobby only. `drawing` (the turn's replay) is passed for reads and snapshots, left out of pushes.
 */
export function presentGame(
  state: GameState,
  viewerId: string,
  now: number,
  drawing?: PictionaryDrawItem[],
): PictionaryGame {
  const { row, players, guesses } = state;
  const active = players.filter((p) => p.left_at === null);
  const shown = row.status === 'finished' ? players.filter((p) => p.left_at === null || p.score > 0) : active;
  const drawer = players.find((p) => p.user_id === row.drawer_id) ?? null;
  const turnOver = row.status === 'finished' || row.turn_phase === 'reveal';
  const isDrawer = row.status === 'in_progress' && row.drawer_id === viewerId;
  const wordVisible = row.current_word !== null && (turnOver || isDrawer);
  const customWords = JSON.parse(row.custom_words) as string[];
  const playerScores: Record<string, number> = {};
  for (const p of shown) playerScores[p.user_id] = p.score;

  return {
    id: row.id,
    status: row.status,
    hostId: row.host_id,
    players: shown.map((p) => ({ id: p.user_id, username: p.username })),
    maxRounds: row.max_rounds,
    maxPlayers: row.max_players,
    wordBanks: JSON.parse(row.word_banks) as string[],
    customWords: row.status === 'lobby' && row.host_id === viewerId ? customWords : [],
    customWordCount: customWords.length,
    currentDrawer:
      drawer && row.status === 'in_progress' ? { id: drawer.user_id, username: drawer.username } : null,
    currentWord: wordVisible ? row.current_word : null,
    wordPattern:
      row.current_word !== null && row.status === 'in_progress' ? wordPattern(row.current_word) : null,
    roundNumber: row.round_number,
    playerScores,
    guesses: guesses
      // A close guess, or a wrong one containing the word, reaches its author alone (issue 26).
      .filter((g) => !(g.is_private && g.user_id !== viewerId))
      .map((g) => ({
        playerId: g.user_id,
        playerUsername: g.username,
        guess: g.is_correct && !turnOver && g.user_id !== viewerId && !isDrawer ? null : g.guess,
        isCorrect: g.is_correct === 1,
        points: g.points,
        isPrivate: g.is_private === 1,
      })),
    ...(drawing ? { drawingData: drawing } : {}),
    turnNumber: row.turn_number,
    turnPhase: row.status === 'in_progress' ? row.turn_phase : null,
    turnEndsAt: row.status === 'in_progress' ? row.turn_ends_at : null,
    serverTime: new Date(now).toISOString(),
    isPrivate: row.is_private === 1,
    nextGameId: row.status === 'finished' ? row.next_game_id : null,
    awayIds: row.status === 'in_progress' ? active.filter((p) => p.away).map((p) => p.user_id) : [],
    hasGuessed: guesses.some((g) => g.user_id === viewerId && g.is_correct === 1),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
