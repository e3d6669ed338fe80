import type { PictionaryGame } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { toCanvasPoint } from './canvas-draw.ts';
import { newerGame, parseCustomWords, ranking, secondsLeft } from './game-view.ts';
import { testGame } from './test-game.ts';

const game = (over: Partial<PictionaryGame> = {}): PictionaryGame =>
  testGame({
    wordPattern: '___',
    playerScores: { a: 3, b: 10, c: 3 },
    turnEndsAt: '2026-01-01T00:01:20.000Z',
    version: 5,
    createdAt: '',
    updatedAt: '',
    ...over,
  });

describe('Pictionary screen helpers', () => {
  it('keeps the later state, and a full read (with the drawing) over a push of the same version', () => {
    expect(newerGame(game({ version: 6 }), game({ version: 5 })).version).toBe(6);
    expect(newerGame(game({ version: 5 }), game({ version: 6 })).version).toBe(6);
    expect(newerGame(game(), game({ drawingData: [] })).drawingData).toEqual([]);
  });

  it('counts down by the server clock, whatever the tab clock says', () => {
    const g = game();
    const serverNow = Date.parse(g.serverTime);
    // The tab's clock is 1 h behind: offset = server − local.
    const local = serverNow - 3_600_000;
    expect(secondsLeft(g, 3_600_000, local)).toBe(80);
    expect(secondsLeft(g, 3_600_000, local + 79_500)).toBe(1);
    expect(secondsLeft(g, 3_600_000, local + 90_000)).toBe(0);
  });

  it('ranks by points, ties in join order', () => {
    expect(ranking(game()).map((p) => p.username)).toEqual(['bob', 'alice', 'cleo']);
  });

  it('maps a pointer on a phone-sized canvas to 1000×600 coordinates, clamped', () => {
    const rect = { left: 16, top: 300, width: 343, height: 205.8 };
    expect(toCanvasPoint(16 + 343 / 2, 300 + 205.8 / 2, rect)).toEqual({ x: 500, y: 300 });
    expect(toCanvasPoint(0, 0, rect)).toEqual({ x: 0, y: 0 });
    expect(toCanvasPoint(1000, 1000, rect)).toEqual({ x: 1000, y: 600 });
  });

  it('reads custom words one per line or comma-separated', () => {
    expect(parseCustomWords('cat, dog\nice cream')).toEqual(['cat', ' dog', 'ice cream']);
  });
});
