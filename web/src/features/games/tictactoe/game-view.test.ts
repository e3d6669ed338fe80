import type { TicTacToeGame } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { describeGame, newerGame } from './game-view.ts';

const game = (over: Partial<TicTacToeGame> = {}): TicTacToeGame => ({
  id: 'g1',
  status: 'in_progress',
  board: ['', '', '', '', '', '', '', '', ''],
  currentPlayer: 'X',
  winner: null,
  player1: { id: 'a', username: 'alice' },
  player2: { id: 'b', username: 'bob' },
  version: 1,
  endReason: null,
  lastMove: null,
  abandonedBy: null,
  rematch: null,
  rematchOf: null,
  invited: null,
  series: { wins: {}, draws: 0, games: 0 },
  leftAfterEnd: [],
  isPrivate: false,
  createdAt: '',
  updatedAt: '',
  ...over,
});

describe('describeGame', () => {
  it('tells each player whose turn it is', () => {
    expect(describeGame(game(), 'a')).toMatchObject({ mine: 'X', isMyTurn: true, headline: 'Your turn' });
    expect(describeGame(game(), 'b')).toMatchObject({ mine: 'O', isMyTurn: false, headline: "alice's turn" });
  });

  it('shows the spec result texts to winner, loser and on a draw', () => {
    const won = game({
      status: 'finished',
      winner: 'X',
      endReason: 'win',
      board: ['X', 'X', 'X', 'O', 'O', '', '', '', ''],
    });
    expect(describeGame(won, 'a')).toMatchObject({
      headline: 'You Win!',
      tone: 'success',
      winningCells: [0, 1, 2],
    });
    expect(describeGame(won, 'b')).toMatchObject({ headline: 'You Lose!', tone: 'danger' });
    expect(describeGame(game({ status: 'finished', winner: 'draw', endReason: 'draw' }), 'b').headline).toBe(
      "It's a Draw!",
    );
  });

  it('explains a forfeit to both sides', () => {
    const forfeit = game({ status: 'finished', winner: 'O', endReason: 'forfeit' });
    expect(describeGame(forfeit, 'b')).toMatchObject({
      headline: 'You Win!',
      detail: 'alice left the game.',
    });
    expect(describeGame(forfeit, 'a')).toMatchObject({ headline: 'You Lose!', detail: 'You left the game.' });
  });

  it('offers the claim only to the player whose opponent left a game in progress', () => {
    const left = game({ abandonedBy: 'O' });
    expect(describeGame(left, 'a').canClaim).toBe(true);
    expect(describeGame(left, 'b').canClaim).toBe(false);
    expect(describeGame(game(), 'a').canClaim).toBe(false);
    expect(describeGame(game({ abandonedBy: 'X', currentPlayer: 'O' }), 'b')).toMatchObject({
      canClaim: true,
      isMyTurn: true,
    });
  });

  it('explains a claimed win to both sides', () => {
    const claimed = game({ status: 'finished', winner: 'X', endReason: 'abandoned' });
    expect(describeGame(claimed, 'a')).toMatchObject({
      headline: 'You Win!',
      tone: 'success',
      detail: 'bob stopped playing, so you claimed the win.',
      canClaim: false,
    });
    expect(describeGame(claimed, 'b')).toMatchObject({
      headline: 'You Lose!',
      detail: 'You were away too long: alice claimed the win.',
    });
  });

  it('offers a rematch to the player who did not ask', () => {
    const over = game({
      status: 'finished',
      winner: 'X',
      endReason: 'win',
      rematch: { gameId: 'g2', requestedBy: 'b' },
    });
    expect(describeGame(over, 'a')).toMatchObject({ rematchOffered: true, canRematch: true });
    expect(describeGame(over, 'b').rematchOffered).toBe(false);
  });

  it('waiting games name the invitee of a rematch', () => {
    const waiting = game({ status: 'waiting', player2: null, invited: { id: 'b', username: 'bob' } });
    expect(describeGame(waiting, 'a').headline).toBe('Waiting for bob to accept the rematch...');
    expect(describeGame(game({ status: 'waiting', player2: null }), 'a').headline).toBe(
      'Waiting for an opponent...',
    );
  });
});

describe('newerGame', () => {
  it('keeps the higher version of the same game and takes any other game as is', () => {
    expect(newerGame(game({ version: 5 }), game({ version: 4 })).version).toBe(5);
    expect(newerGame(game({ version: 5 }), game({ version: 6 })).version).toBe(6);
    expect(newerGame(game({ version: 5 }), game({ id: 'g2', version: 1 })).id).toBe('g2');
    expect(newerGame(undefined, game()).id).toBe('g1');
  });
});
