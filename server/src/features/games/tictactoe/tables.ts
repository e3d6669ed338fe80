import type { Mark, TicTacToeGame, TicTacToeStatus, TicTacToeWinner } from '@guildhall/common';

/** Tic-tac-toe tables (migration 004). Board: 9 characters, '.' for an empty cell. */
export type TicTacToeGamesTable = {
  id: string;
  status: TicTacToeStatus;
  board: string;
  current_player: Mark;
  winner: TicTacToeWinner | null;
  end_reason: TicTacToeGame['endReason'];
  player1_id: string;
  player2_id: string | null;
  last_move: number | null;
  version: number;
  /** A rematch offer waits for this player only; matchmaking skips it. */
  reserved_for: string | null;
  rematch_of: string | null;
  rematch_id: string | null;
  rematch_by: string | null;
  /** The tally of the earlier games of a rematch chain: JSON `{wins: {userId: n}, draws: n}` (migration 042). */
  series: string;
  /** 1 once that player left the finished game (no rematch offered to or by them). */
  player1_left: number;
  player2_left: number;
  /** 1: made with "Invite a friend"; Find Game never matches into it, its link does (migration 046). */
  is_private: number;
  created_at: string;
  updated_at: string;
};

/** One row per player of an unfinished game (primary key user_id). */
export type TicTacToeSeatsTable = {
  user_id: string;
  game_id: string;
  /** When the player last looked at the game (a poll, a subscribe, a join); ISO-8601. */
  seen_at: string;
};

/** A single row (id 1) that join transactions lock first, one at a time. */
export type TicTacToeMatchmakingTable = {
  id: number;
  turns: number;
};

export type TicTacToeTables = {
  tictactoe_games: TicTacToeGamesTable;
  tictactoe_seats: TicTacToeSeatsTable;
  tictactoe_matchmaking: TicTacToeMatchmakingTable;
};
