import { PICTIONARY_DRAWER_POINTS, type PictionaryDrawItem, type PictionaryGame } from '@guildhall/common';
import { maskedWord } from './hints.ts';
import type { ChatRow, GameRow, GuessRow, PlayerRow } from './repo.ts';

/**
 * Everything the presenter needs about a game: its row, its players, this turn's guesses, and (running
 * games) this turn's chat among players who guessed and the kick votes.
 */
export type GameState = {
  row: GameRow;
  players: PlayerRow[];
  guesses: GuessRow[];
  chat?: ChatRow[];
  kickVotes?: { target_id: string; voter_id: string }[];
};

/** Votes needed to kick `targetId`: a majority of the other players present (not away, not the target). */
export function kickVotesNeeded(players: PlayerRow[], targetId: string): number {
  const others = players.filter((p) => p.left_at === null && !p.away && p.user_id !== targetId).length;
  return Math.floor(others / 2) + 1;
}

/** Votes against `targetId` that count: those of players still here (present, not the target). */
export function kickVotesFor(state: GameState, targetId: string): string[] {
  const here = new Set(
    state.players
      .filter((p) => p.left_at === null && !p.away && p.user_id !== targetId)
      .map((p) => p.user_id),
  );
  return (state.kickVotes ?? [])
    .filter((v) => v.target_id === targetId && here.has(v.voter_id))
    .map((v) => v.voter_id);
}

/**
 * The game as `viewerId` may see it (portal-tools §3). This is the ONLY reader of `current_word` and
 * `word_choices`: the word goes to the drawer, and to everyone once the turn is over (reveal) or the game has
 * finished; the offered words go to the drawer alone while choosing; guessers get the masked word with the
 * letters hints revealed so far; the chat among players who guessed goes to the drawer and to them. Another
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
  const running = row.status === 'in_progress';
  const hasGuessed = guesses.some((g) => g.user_id === viewerId && g.is_correct === 1);
  const viewerHere = active.some((p) => p.user_id === viewerId);
  // The chat among players who guessed: the turn's drawer and those who guessed it, nobody else, ever.
  const inChat = running && viewerHere && (isDrawer || hasGuessed);
  const revealed = (JSON.parse(row.hint_order) as number[]).slice(0, row.hints_shown);

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
    wordPattern: row.current_word !== null && running ? maskedWord(row.current_word, revealed) : null,
    wordChoices:
      isDrawer && row.turn_phase === 'choosing' && row.word_choices
        ? (JSON.parse(row.word_choices) as string[])
        : null,
    hints: row.hint_count,
    drawSeconds: row.draw_seconds,
    turnSummary: running && row.turn_phase === 'reveal' ? turnSummary(state) : null,
    chat: inChat
      ? (state.chat ?? []).map((c) => ({ playerId: c.user_id, playerUsername: c.username, text: c.text }))
      : [],
    kickVotes: running
      ? active
          .map((p) => ({ p, voters: kickVotesFor(state, p.user_id) }))
          .filter(({ voters }) => voters.length > 0)
          .map(({ p, voters }) => ({
            playerId: p.user_id,
            votes: voters.length,
            needed: kickVotesNeeded(players, p.user_id),
            byMe: voters.includes(viewerId),
          }))
      : [],
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
    hasGuessed,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The points each player gained in the turn just over: a guesser the points of their correct guess, the
 * drawer PICTIONARY_DRAWER_POINTS per correct guess, 0 for everyone else still here; best first, then join order.
 */
function turnSummary(state: GameState): NonNullable<PictionaryGame['turnSummary']> {
  const { row, players, guesses } = state;
  const gained = new Map<string, number>();
  const correct = guesses.filter((g) => g.is_correct === 1);
  for (const g of correct) gained.set(g.user_id, (gained.get(g.user_id) ?? 0) + g.points);
  if (row.drawer_id && correct.length > 0)
    gained.set(row.drawer_id, (gained.get(row.drawer_id) ?? 0) + PICTIONARY_DRAWER_POINTS * correct.length);
  return players
    .filter((p) => p.left_at === null || (gained.get(p.user_id) ?? 0) > 0)
    .map((p) => ({ playerId: p.user_id, playerUsername: p.username, points: gained.get(p.user_id) ?? 0 }))
    .sort((a, b) => b.points - a.points);
}
