import type { PictionaryGame } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { cuesFor, tickDue } from './sound-cues.ts';
import { testGame } from './test-game.ts';

const base = testGame();
const game = (over: Partial<PictionaryGame>): PictionaryGame => testGame(over);
const correct = (playerId: string) => ({
  playerId,
  playerUsername: playerId,
  guess: null,
  isCorrect: true,
  points: 10,
  isPrivate: false,
});
const wrong = { ...correct('c'), isCorrect: false, guess: 'cat', points: 0 };

describe('sound cues (issue 29)', () => {
  it('your turn: when a turn starts (word choice or drawing) with me as drawer (from the lobby or the reveal), not for others', () => {
    const lobby = game({ status: 'lobby', turnPhase: null, turnNumber: 0, currentDrawer: null });
    // The game starts: the first drawer hears it.
    expect(cuesFor(lobby, base, 'a')).toEqual(['your-turn']);
    expect(cuesFor(lobby, base, 'b')).toEqual([]);
    const reveal = game({ turnPhase: 'reveal' });
    const bobDraws = game({ turnNumber: 2, currentDrawer: { id: 'b', username: 'bob' } });
    expect(cuesFor(reveal, bobDraws, 'b')).toEqual(['your-turn']);
    expect(cuesFor(reveal, bobDraws, 'a')).toEqual([]);
    // A turn opens with the word choice: the drawer hears it then, and not again when drawing starts.
    const choosing = game({
      turnNumber: 2,
      turnPhase: 'choosing',
      currentDrawer: { id: 'b', username: 'bob' },
    });
    expect(cuesFor(reveal, choosing, 'b')).toEqual(['your-turn']);
    expect(cuesFor(choosing, bobDraws, 'b')).toEqual([]);
    // Nothing again while the same turn goes on, and nothing on opening or reloading the screen.
    expect(cuesFor(base, game({ version: 2 }), 'a')).toEqual([]);
    expect(cuesFor(null, base, 'a')).toEqual([]);
  });

  it('a correct guess: mine or anyone’s, once per new correct guess; a wrong guess or a new turn is silent', () => {
    const one = game({ guesses: [correct('b')] });
    expect(cuesFor(base, one, 'b')).toEqual(['correct']);
    expect(cuesFor(base, one, 'c')).toEqual(['correct']);
    expect(cuesFor(base, one, 'a')).toEqual(['correct']);
    expect(cuesFor(one, game({ guesses: [correct('b'), wrong] }), 'c')).toEqual([]);
    expect(cuesFor(one, one, 'c')).toEqual([]);
    // The last correct guess ends the turn: the state that brings it is the reveal, and it is heard.
    expect(cuesFor(base, game({ turnPhase: 'reveal', guesses: [correct('b')] }), 'c')).toEqual(['correct']);
    // A new turn resets the count silently.
    expect(cuesFor(one, game({ turnNumber: 2, currentDrawer: { id: 'c', username: 'cleo' } }), 'b')).toEqual(
      [],
    );
  });

  it('the clock ticks once a second for the last 10 seconds, not before, not at 0, not on the first reading', () => {
    expect(tickDue(12, 11)).toBe(false);
    expect(tickDue(11, 10)).toBe(true);
    expect(tickDue(10, 10)).toBe(false);
    expect(tickDue(2, 1)).toBe(true);
    expect(tickDue(1, 0)).toBe(false);
    expect(tickDue(null, 7)).toBe(false);
  });
});
