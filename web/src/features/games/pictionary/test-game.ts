import type { PictionaryGame } from '@guildhall/common';

/**
 * A running game of alice (host, drawing), bob and cleo, for the screen's unit tests: one place to add a
 * field when PictionaryGame grows. Tests override what they are about.
 */
export function testGame(over: Partial<PictionaryGame> = {}): PictionaryGame {
  return {
    id: 'g1',
    status: 'in_progress',
    hostId: 'a',
    players: [
      { id: 'a', username: 'alice' },
      { id: 'b', username: 'bob' },
      { id: 'c', username: 'cleo' },
    ],
    maxRounds: 3,
    maxPlayers: 8,
    wordBanks: ['general'],
    customWords: [],
    customWordCount: 0,
    currentDrawer: { id: 'a', username: 'alice' },
    currentWord: null,
    wordPattern: '_____',
    roundNumber: 1,
    playerScores: {},
    guesses: [],
    awayIds: [],
    wordChoices: null,
    hints: 2,
    drawSeconds: 80,
    turnSummary: null,
    chat: [],
    kickVotes: [],
    isPrivate: false,
    nextGameId: null,
    turnNumber: 1,
    turnPhase: 'drawing',
    turnEndsAt: null,
    serverTime: '2026-01-01T00:00:00.000Z',
    hasGuessed: false,
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
