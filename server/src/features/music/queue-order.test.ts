import type { Song } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { insertionIndex } from './queue-order.ts';

const song = (who: string, n: number): Song => ({
  id: `${who}${n}`,
  youtube_id: `${who}${n}`,
  title: `${who}${n}`,
  uploader: '',
  duration: 60,
  url: `library:${who}${n}`,
  thumbnail: null,
  platform: 'library',
  entryId: `${who}${n}`,
  requestedBy: { id: who, avatar: null, displayName: who },
});

/** Queues each song as the player does and returns the titles in play order (the first one plays). */
function playOrder(requests: Song[], fair: boolean): string[] {
  let current: Song | null = null;
  const queue: Song[] = [];
  for (const s of requests) {
    if (!current) current = s;
    else queue.splice(insertionIndex(queue, current, s, fair), 0, s);
  }
  return [current, ...queue].filter((s): s is Song => s !== null).map((s) => s.title);
}

describe('where a new song goes in the queue (issue 48)', () => {
  it('fair queue: A queues 3, B queues 1, so B plays second', () => {
    const requests = [song('A', 1), song('A', 2), song('A', 3), song('B', 1)];
    expect(playOrder(requests, true)).toEqual(['A1', 'B1', 'A2', 'A3']);
    // First come, first served without it.
    expect(playOrder(requests, false)).toEqual(['A1', 'A2', 'A3', 'B1']);
  });

  it('fair queue takes one song per member per round, in the order members first asked', () => {
    const requests = [
      song('A', 1),
      song('A', 2),
      song('A', 3),
      song('B', 1),
      song('C', 1),
      song('B', 2),
      song('B', 3),
      song('C', 2),
    ];
    expect(playOrder(requests, true)).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'C2', 'A3', 'B3']);
  });

  it('a song moved by hand stays where it was put; new ones count their round from the queue as it is', () => {
    const current = song('A', 1);
    // B moved their second song to the top by hand: B has two songs before A's second one.
    const queue = [song('B', 2), song('B', 1), song('A', 2)];
    expect(insertionIndex(queue, current, song('C', 1), true)).toBe(1);
    expect(insertionIndex(queue, current, song('A', 3), true)).toBe(3);
  });
});

describe('autoplay songs in the queue (issue 48)', () => {
  it("a member's request always goes before them, with or without fair queue", () => {
    const auto = { ...song('X', 1), autoplay: true, requestedBy: { avatar: null, displayName: 'Autoplay' } };
    const queue = [song('A', 2), auto];
    for (const fair of [false, true]) {
      expect(insertionIndex(queue, song('A', 1), song('B', 1), fair)).toBe(fair ? 0 : 1);
      expect(insertionIndex(queue, song('A', 1), song('A', 3), fair)).toBe(1);
    }
    // The autoplay song playing is nobody's turn.
    expect(insertionIndex([], auto, song('B', 1), true)).toBe(0);
  });
});
