import { describe, expect, it } from 'vitest';
import {
  applyMove,
  type Cell,
  emptyBoard,
  markOf,
  moveRejection,
  outcomeOf,
  resultText,
  TICTACTOE_TEXTS,
  winningLine,
} from './tictactoe.ts';

const board = (s: string): Cell[] => [...s].map((c) => (c === '.' ? '' : (c as Cell)));

describe('tic-tac-toe rules', () => {
  it('finds every line of three and nothing else', () => {
    expect(winningLine(board('XXX......'))).toEqual([0, 1, 2]);
    expect(winningLine(board('..O.O.O..'))).toEqual([2, 4, 6]);
    expect(winningLine(board('X..X..X..'))).toEqual([0, 3, 6]);
    expect(winningLine(board('XXOOOXXOX'))).toBeNull();
    expect(winningLine(emptyBoard())).toBeNull();
  });

  it('calls a full board without a line a draw, and an open board undecided', () => {
    expect(outcomeOf(board('XXOOOXXOX'))).toBe('draw');
    expect(outcomeOf(board('XXO.OXXOX'))).toBeNull();
    expect(outcomeOf(board('OXXOXXO..'))).toBe('O');
  });

  it('a win on the last cell is a win, not a draw', () => {
    expect(outcomeOf(board('XOXOXOOXX'))).toBe('X');
  });

  it('allows a move only in progress, on your turn, on an empty cell', () => {
    const state = { status: 'in_progress' as const, board: board('X........'), currentPlayer: 'O' as const };
    expect(moveRejection(state, 'O', 4)).toBeNull();
    expect(moveRejection(state, 'X', 4)).toBe(TICTACTOE_TEXTS.notYourTurn);
    expect(moveRejection(state, 'O', 0)).toBe(TICTACTOE_TEXTS.cellTaken);
    expect(moveRejection({ ...state, status: 'waiting' }, 'O', 4)).toBe(TICTACTOE_TEXTS.notStarted);
    expect(moveRejection({ ...state, status: 'finished' }, 'O', 4)).toBe(TICTACTOE_TEXTS.alreadyFinished);
    expect(moveRejection(state, 'O', 9)).toMatch(/0 to 8/);
    expect(moveRejection(state, 'O', 1.5)).toMatch(/0 to 8/);
  });

  it('passes the turn after a move and finishes on a line or a full board', () => {
    const start = { status: 'in_progress' as const, board: emptyBoard(), currentPlayer: 'X' as const };
    const first = applyMove(start, 'X', 4);
    expect(first).toMatchObject({ currentPlayer: 'O', status: 'in_progress', winner: null });
    expect(first.board[4]).toBe('X');
    expect(start.board[4]).toBe('');

    const won = applyMove({ status: 'in_progress', board: board('XX.OO....'), currentPlayer: 'X' }, 'X', 2);
    expect(won).toMatchObject({ status: 'finished', winner: 'X' });
    const drawn = applyMove({ status: 'in_progress', board: board('XXOOOXX.X'), currentPlayer: 'O' }, 'O', 7);
    expect(drawn).toMatchObject({ status: 'finished', winner: 'draw' });
  });

  it('player 1 is X, player 2 is O, anyone else has no mark', () => {
    const game = { player1: { id: 'a' }, player2: { id: 'b' } };
    expect(markOf(game, 'a')).toBe('X');
    expect(markOf(game, 'b')).toBe('O');
    expect(markOf(game, 'c')).toBeNull();
    expect(markOf({ player1: { id: 'a' }, player2: null }, 'b')).toBeNull();
  });

  it('shows the spec result texts', () => {
    expect(resultText('X', 'X')).toBe('You Win!');
    expect(resultText('X', 'O')).toBe('You Lose!');
    expect(resultText('draw', 'O')).toBe("It's a Draw!");
    expect(resultText(null, 'O')).toBeNull();
  });
});
