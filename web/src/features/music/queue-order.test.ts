import { describe, expect, it } from 'vitest';
import { moveItem, totalSeconds } from './queue-order.ts';

describe('queue reorder', () => {
  it('moves the last to the top and a top item down, like the server', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
  it('leaves the order alone for out-of-range or equal positions', () => {
    const q = ['a', 'b'];
    expect(moveItem(q, 0, 5)).toEqual(q);
    expect(moveItem(q, 1, 1)).toEqual(q);
    expect(moveItem(q, 1, 0)).not.toBe(q);
  });
  it('sums durations', () => {
    expect(totalSeconds([{ duration: 60 }, { duration: 125 }])).toBe(185);
  });
});
