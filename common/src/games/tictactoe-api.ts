import { z } from 'zod';
import { TICTACTOE_CELLS } from './tictactoe.ts';

/** The room and event of one tic-tac-toe game on the realtime channel. */
export const TICTACTOE_STATE_EVENT = 'tictactoe:state';
export const TICTACTOE_ROOM_TYPE = 'tictactoe';
export function tictactoeRoom(gameId: string): string {
  return `${TICTACTOE_ROOM_TYPE}:${gameId}`;
}

const MarkSchema = z.enum(['X', 'O']);

/** A player as the spec names it: id (the Discord id, i.e. the client user's id) and username. */
export const TicTacToePlayer = z.object({ id: z.string(), username: z.string() });
export type TicTacToePlayer = z.infer<typeof TicTacToePlayer>;

/**
 * The game (portal-tools §3) plus what a client needs to render it without guessing: a version that
 * grows with every change, why it ended, the last move, a player who left and a pending rematch.
 */
export const TicTacToeGame = z.object({
  id: z.string(),
  status: z.enum(['waiting', 'in_progress', 'finished']),
  board: z.array(z.enum(['', 'X', 'O'])).length(TICTACTOE_CELLS),
  currentPlayer: MarkSchema,
  winner: z.enum(['X', 'O', 'draw']).nullable(),
  player1: TicTacToePlayer,
  player2: TicTacToePlayer.nullable(),
  version: z.number().int(),
  /** `abandoned`: the opponent stopped showing up and the player who stayed claimed the win. */
  endReason: z.enum(['win', 'draw', 'forfeit', 'abandoned', 'cancelled']).nullable(),
  lastMove: z.number().int().nullable(),
  /**
   * In progress only: the player not seen for TICTACTOE_ABSENT_AFTER_MS when this state was produced
   * (their opponent may claim the win); null when both are there. Decided by the server's clock, so a
   * client's clock cannot move it; polls bring it up to date.
   */
  abandonedBy: MarkSchema.nullable(),
  /** On a finished game: the rematch one player offered (a new game waiting for the other). */
  rematch: z.object({ gameId: z.string(), requestedBy: z.string() }).nullable(),
  /** On a rematch game: the finished game it follows, and the only player who may take seat 2. */
  rematchOf: z.string().nullable(),
  invited: TicTacToePlayer.nullable(),
  /**
   * The series this game belongs to (a chain of rematches), this game included once finished: wins by player
   * id, draws, games counted. A first game is a series of one.
   */
  series: z.object({
    wins: z.record(z.string(), z.number().int()),
    draws: z.number().int(),
    games: z.number().int(),
  }),
  /**
   * Made with "Invite a friend" (issue 29): Find Game never matches into it; the link
   * `/minigames/tic-tac-toe?join=<id>` seats the friend as O.
   */
  isPrivate: z.boolean(),
  /** Players who left the finished game (no rematch with them). */
  leftAfterEnd: z.array(MarkSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicTacToeGame = z.infer<typeof TicTacToeGame>;

/** The spec's envelope {success, game, message}. */
export const TicTacToeResponse = z.object({
  success: z.literal(true),
  game: TicTacToeGame,
  message: z.string(),
});
export type TicTacToeResponse = z.infer<typeof TicTacToeResponse>;

/** GET /current: the user's unfinished game, or null when there is none. */
export const TicTacToeCurrentResponse = z.object({
  success: z.literal(true),
  game: TicTacToeGame.nullable(),
  message: z.string(),
});
export type TicTacToeCurrentResponse = z.infer<typeof TicTacToeCurrentResponse>;

/** The payload pushed on `tictactoe:state`. */
export const TicTacToeStatePush = z.object({ game: TicTacToeGame });
export type TicTacToeStatePush = z.infer<typeof TicTacToeStatePush>;

export const TicTacToeGameParams = z.object({
  id: z.uuid({ error: 'Game id must be a UUID' }),
});

const positionRange = 'position must be a whole number from 0 to 8';
export const TicTacToeMoveBody = z.object(
  {
    position: z
      .number({
        error: (iss) => (iss.input === undefined ? 'position is required' : 'position must be a number'),
      })
      .int({ error: positionRange })
      .min(0, { error: positionRange })
      .max(TICTACTOE_CELLS - 1, { error: positionRange }),
  },
  { error: 'Request body must be a JSON object with a position' },
);
export type TicTacToeMoveBody = z.infer<typeof TicTacToeMoveBody>;
