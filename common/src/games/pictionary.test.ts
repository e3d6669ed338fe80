import { describe, expect, it } from 'vitest';
import {
  cleanCustomWords,
  cleanWordBanks,
  guessPoints,
  isCloseGuess,
  normalizeWord,
  PICTIONARY_QUICK_COLORS,
  wordPattern,
} from './pictionary.ts';

describe('Pictionary rules', () => {
  it('scores correct guesses 10, 7, 5, then 3 (the help text)', () => {
    expect([0, 1, 2, 3, 4, 7].map(guessPoints)).toEqual([10, 7, 5, 3, 3, 3]);
  });

  it('keeps custom words trimmed, lowercased, without empties or duplicates', () => {
    expect(cleanCustomWords([' Cat ', 'cat', '', '   ', 'Ice   Cream', 'DOG'])).toEqual([
      'cat',
      'ice cream',
      'dog',
    ]);
  });

  it('falls back to general when no category is left', () => {
    expect(cleanWordBanks([])).toEqual(['general']);
    expect(cleanWordBanks(['food', 'food', 'animals'])).toEqual(['food', 'animals']);
  });

  it('shows guessers blanks for letters and keeps spaces and hyphens', () => {
    expect(wordPattern('ice cream')).toBe('___ _____');
    expect(wordPattern('t-shirt')).toBe('_-_____');
  });

  it('calls a guess one edit away close, and nothing else', () => {
    expect(isCloseGuess('elephent', 'elephant')).toBe(true); // replaced
    expect(isCloseGuess('elephan', 'elephant')).toBe(true); // missing
    expect(isCloseGuess('elephants', 'elephant')).toBe(true); // added
    expect(isCloseGuess('elehpant', 'elephant')).toBe(true); // neighbours swapped
    expect(isCloseGuess('elephant', 'elephant')).toBe(false);
    expect(isCloseGuess('elepant', 'elephants')).toBe(false);
    expect(isCloseGuess('ox', 'ax')).toBe(false); // too short to hint
    expect(normalizeWord('  Hot   Dog ')).toBe('hot dog');
  });

  it("has the spec's 8 quick colours", () => {
    expect(PICTIONARY_QUICK_COLORS).toHaveLength(8);
  });
});
