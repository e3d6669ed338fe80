/** Tic-tac-toe rules (portal-tools §4), shared by the server (authoritative) and the web (rendering). */
export const TICTACTOE_POLL_MS = 2000;
/**
 * A player not seen for this long has left: matchmaking skips their waiting game, and in a game in progress
 * their opponent may claim the win. "Seen" is a poll, `GET /current`, a join, a realtime subscribe or a
 * move (the server notes it at most every 10 s). Safe against background tabs: the screen keeps polling every
 * TICTACTOE_POLL_MS when hidden, and browsers slow hidden tabs' timers to no less than once a minute
 * (Chrome's intensive throttling), so a tab that is still open shows up at least every ~60 s and 90 s
 * leaves a margin. The socket alone does not count (only its subscribes, which every reconnect repeats);
 * a tab the browser froze or discarded, or a laptop that went to sleep, has left.
 */
export const TICTACTOE_ABSENT_AFTER_MS = 90_000;
/**
 * A waiting game is offered to others only while its creator was seen this recently: a player who pressed
 * Find Game and closed the tab is not matched (an open tab is noted every 5 s through its socket, or by its
 * 2 s poll, written at most every 10 s).
 */
export const TICTACTOE_WAITING_ABSENT_AFTER_MS = 25_000;
export const TICTACTOE_CELLS = 9;

export const TICTACTOE_TEXTS = {
  title: 'Tic-Tac-Toe',
  pictionaryTitle: 'Pictionary',
  minigamesTitle: 'Minigames',
  findGame: 'Find Game',
  findingGame: 'Finding Game...',
  leaveGame: 'Leave Game',
  rematch: 'Rematch',
  opponentLeftFinished: (name: string) => `${name} has left.`,
  series: 'Series',
  acceptRematch: 'Accept Rematch',
  backToMinigames: 'Back to Minigames',
  backToDashboard: 'Back to Dashboard',
  gameStatus: 'Game Status',
  win: 'You Win!',
  lose: 'You Lose!',
  draw: "It's a Draw!",
  joinFailed: 'Failed to join game',
  moveFailed: 'Failed to make move',
  waitingForOpponent: 'Waiting for an opponent...',
  yourTurn: 'Your turn',
  // server messages (our wording; the spec names only the client's two failures)
  gameNotFound: 'Game not found',
  notAPlayer: 'You are not a player in this game',
  notStarted: 'The game has not started yet: waiting for an opponent',
  alreadyFinished: 'The game is already finished',
  notYourTurn: "It's not your turn",
  cellTaken: 'That cell is already taken',
  alreadyInGame: 'You are already in another game',
  notFinished: 'The game is not finished yet',
  noOpponent: 'There is no opponent to play again',
  busy: 'The game changed while your move was being applied; please try again',
  opponentLeft: 'Your opponent seems to have left.',
  claimWin: 'Claim Win',
  claimFailed: 'Failed to claim the win',
  // Invite a friend by link (issue 29)
  inviteFriend: 'Invite a Friend',
  invitingFriend: 'Creating invite...',
  inviteLink: 'Invite link',
  inviteHint:
    'Send this link to a friend: the first to open it plays O. Find Game never matches into this game.',
  copyLink: 'Copy link',
  inviteFailed: 'Failed to create the invite',
  inviteEnded: 'This game has already ended',
  inviteFull: 'This game already has two players',
  inviteReserved: 'This game is waiting for another player',
  inviteInGame: 'You are already in another game; leave it to join this one',
  inviteWhileInGame: 'You are already in a game; leave it to invite a friend',
} as const;

/** The 409 of a claim made too early: how long the opponent must still stay away. */
export function opponentStillHereText(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return `Your opponent is still here: you can claim the win if they stay away for ${seconds} more second${seconds === 1 ? '' : 's'}`;
}

export type Mark = 'X' | 'O';
export type Cell = '' | Mark;
export type TicTacToeStatus = 'waiting' | 'in_progress' | 'finished';
export type TicTacToeWinner = Mark | 'draw';

/** The eight lines of three (rows, columns, diagonals). */
export const WIN_LINES: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

export function emptyBoard(): Cell[] {
  return Array.from({ length: TICTACTOE_CELLS }, () => '' as Cell);
}

/** The completed line of a mark, or null. */
export function winningLine(board: readonly Cell[]): readonly [number, number, number] | null {
  for (const line of WIN_LINES) {
    const [a, b, c] = line;
    const m = board[a];
    if (m && m === board[b] && m === board[c]) return line;
  }
  return null;
}

/** X or O when one holds a line, draw when the board is full, else null (the game goes on). */
export function outcomeOf(board: readonly Cell[]): TicTacToeWinner | null {
  const line = winningLine(board);
  if (line) return board[line[0]] as Mark;
  return board.every((c) => c !== '') ? 'draw' : null;
}

export function otherMark(mark: Mark): Mark {
  return mark === 'X' ? 'O' : 'X';
}

export type MoveState = { status: TicTacToeStatus; board: readonly Cell[]; currentPlayer: Mark };

/** Why a move may not be made, or null when it may (in_progress, the user's turn, an empty cell). */
export function moveRejection(state: MoveState, mark: Mark, position: number): string | null {
  if (state.status === 'waiting') return TICTACTOE_TEXTS.notStarted;
  if (state.status === 'finished') return TICTACTOE_TEXTS.alreadyFinished;
  if (state.currentPlayer !== mark) return TICTACTOE_TEXTS.notYourTurn;
  if (!Number.isInteger(position) || position < 0 || position >= TICTACTOE_CELLS) {
    return 'position must be a whole number from 0 to 8';
  }
  if (state.board[position] !== '') return TICTACTOE_TEXTS.cellTaken;
  return null;
}

export type MoveResult = {
  board: Cell[];
  currentPlayer: Mark;
  status: TicTacToeStatus;
  winner: TicTacToeWinner | null;
};

/** The state after a legal move (call moveRejection first): the turn passes, a line wins, a full board draws. */
export function applyMove(state: MoveState, mark: Mark, position: number): MoveResult {
  const board = [...state.board];
  board[position] = mark;
  const winner = outcomeOf(board);
  return {
    board,
    currentPlayer: winner ? mark : otherMark(mark),
    status: winner ? 'finished' : 'in_progress',
    winner,
  };
}

type Seated = { player1: { id: string }; player2: { id: string } | null };

/** Player 1 is X, player 2 is O; anyone else has no mark. */
export function markOf(game: Seated, userId: string): Mark | null {
  if (game.player1.id === userId) return 'X';
  if (game.player2?.id === userId) return 'O';
  return null;
}

/** The result text a player sees: "You Win!", "You Lose!" or "It's a Draw!" (null while unfinished). */
export function resultText(winner: TicTacToeWinner | null, mine: Mark | null): string | null {
  if (!winner) return null;
  if (winner === 'draw') return TICTACTOE_TEXTS.draw;
  return winner === mine ? TICTACTOE_TEXTS.win : TICTACTOE_TEXTS.lose;
}
