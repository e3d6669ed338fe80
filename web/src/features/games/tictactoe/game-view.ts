import {
  type Mark,
  markOf,
  otherMark,
  resultText,
  TICTACTOE_TEXTS as T,
  type TicTacToeGame,
  type TicTacToePlayer,
  winningLine,
} from '@guildhall/common';

export type Tone = 'neutral' | 'brand' | 'success' | 'danger' | 'warning';

/** Everything the screen shows about a game from one player's seat. */
export type GameView = {
  mine: Mark | null;
  opponent: TicTacToePlayer | null;
  isMyTurn: boolean;
  /** The big status line: whose turn, waiting, or the result text of portal-tools §4. */
  headline: string;
  /** The smaller line under it. */
  detail: string;
  tone: Tone;
  winningCells: readonly number[];
  /** The opponent has not been seen for a while in a game in progress: this player may claim the win. */
  canClaim: boolean;
  /** The opponent asked for a rematch that this player can accept. */
  rematchOffered: boolean;
  canRematch: boolean;
};

/** The status lines and flags of a game as seen by `myId`. */
export function describeGame(game: TicTacToeGame, myId: string): GameView {
  const mine = markOf(game, myId);
  const opponent = mine === 'X' ? game.player2 : mine === 'O' ? game.player1 : null;
  const isMyTurn = game.status === 'in_progress' && game.currentPlayer === mine;
  const base = {
    mine,
    opponent,
    isMyTurn,
    winningCells: winningLine(game.board) ?? [],
    canClaim: game.status === 'in_progress' && mine !== null && game.abandonedBy === otherMark(mine),
    rematchOffered: false,
    canRematch: false,
  };

  if (game.status === 'waiting') {
    return {
      ...base,
      headline: game.invited
        ? `Waiting for ${game.invited.username} to accept the rematch...`
        : T.waitingForOpponent,
      detail: 'You will play X and move first.',
      tone: 'neutral',
    };
  }
  if (game.status === 'in_progress') {
    const name = opponent?.username ?? 'Opponent';
    return isMyTurn
      ? { ...base, headline: T.yourTurn, detail: `You are ${mine}: pick an empty cell.`, tone: 'brand' }
      : { ...base, headline: `${name}'s turn`, detail: `Waiting for ${name} to move...`, tone: 'neutral' };
  }

  const rematchOffered = Boolean(game.rematch && game.rematch.requestedBy !== myId);
  const opponentMark = mine === 'X' ? 'O' : 'X';
  const opponentGone = game.leftAfterEnd.includes(opponentMark);
  // No rematch once the opponent left the finished game (issue 29).
  const canRematch = Boolean(game.player2) && game.endReason !== 'cancelled' && !opponentGone;
  if (game.endReason === 'cancelled') {
    return { ...base, headline: 'Game cancelled', detail: 'Nobody joined this game.', tone: 'neutral' };
  }
  const headline = resultText(game.winner, mine) ?? T.alreadyFinished;
  const tone: Tone = game.winner === 'draw' ? 'warning' : game.winner === mine ? 'success' : 'danger';
  let detail = game.winner === 'draw' ? 'The board is full.' : 'Three in a row.';
  const opponentName = opponent?.username ?? 'Your opponent';
  if (game.endReason === 'forfeit') {
    detail = game.winner === mine ? `${opponentName} left the game.` : 'You left the game.';
  }
  if (game.endReason === 'abandoned') {
    detail =
      game.winner === mine
        ? `${opponentName} stopped playing, so you claimed the win.`
        : `You were away too long: ${opponentName} claimed the win.`;
  }
  if (opponentGone) detail = `${detail} ${T.opponentLeftFinished(opponentName)}`;
  return { ...base, headline, detail, tone, rematchOffered: rematchOffered && !opponentGone, canRematch };
}

/** The later of two states of the same game (pushes, polls and replies can arrive out of order). */
export function newerGame(held: TicTacToeGame | undefined, incoming: TicTacToeGame): TicTacToeGame {
  if (!held || held.id !== incoming.id) return incoming;
  return incoming.version >= held.version ? incoming : held;
}

export const STATUS_LABELS: Record<TicTacToeGame['status'], string> = {
  waiting: 'Waiting',
  in_progress: 'In Progress',
  finished: 'Finished',
};
