import type { Cell, TicTacToeGame } from '@guildhall/common';
import { abandonedBy } from './presence.ts';
import type { GameRow } from './repo.ts';

const EMPTY = '.';

/** Board cells → the 9-character column ('.' for empty). */
export function encodeBoard(board: readonly Cell[]): string {
  return board.map((c) => c || EMPTY).join('');
}

export function decodeBoard(stored: string): Cell[] {
  return [...stored].map((c) => (c === 'X' || c === 'O' ? c : ''));
}

/**
 * Row → the API's game shape (portal-tools §3 plus version, end reason, last move, a player who left and
 * rematch). Who has left is decided as of `now` (the feature's clock).
 */
export function presentGame(row: GameRow, now: number): TicTacToeGame {
  return {
    id: row.id,
    status: row.status,
    board: decodeBoard(row.board),
    currentPlayer: row.current_player,
    winner: row.winner ?? null,
    player1: { id: row.player1_id, username: row.player1_name },
    player2: row.player2_id ? { id: row.player2_id, username: row.player2_name ?? row.player2_id } : null,
    version: Number(row.version),
    endReason: row.end_reason ?? null,
    lastMove: row.last_move === null ? null : Number(row.last_move),
    abandonedBy: abandonedBy(row, now),
    rematch:
      row.rematch_id && row.rematch_by ? { gameId: row.rematch_id, requestedBy: row.rematch_by } : null,
    rematchOf: row.rematch_of,
    invited: row.reserved_for
      ? { id: row.reserved_for, username: row.invited_name ?? row.reserved_for }
      : null,
    series: seriesAfter(row),
    isPrivate: Number(row.is_private) === 1,
    leftAfterEnd: [
      ...(Number(row.player1_left) === 1 ? (['X'] as const) : []),
      ...(Number(row.player2_left) === 1 ? (['O'] as const) : []),
    ],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

type Tally = { wins: Record<string, number>; draws: number };

/** The tally before this game (the stored series) plus this game's result once it is decided. */
export function seriesAfter(row: GameRow): Tally & { games: number } {
  const before = JSON.parse(row.series) as Tally;
  const wins = { ...before.wins };
  let draws = before.draws;
  let counted = Object.values(wins).reduce((a, b) => a + b, 0) + draws;
  if (row.status === 'finished' && row.winner) {
    counted += 1;
    if (row.winner === 'draw') draws += 1;
    else {
      const id = row.winner === 'X' ? row.player1_id : row.player2_id;
      if (id) wins[id] = (wins[id] ?? 0) + 1;
    }
  }
  return { wins, draws, games: counted };
}
