import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebouncer } from './debounce.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('equalizer debounce', () => {
  it('sends once, the last value, 300 ms after the last change', () => {
    const sent: number[] = [];
    const d = createDebouncer(300, (v: number) => sent.push(v));
    for (const v of [1, 2, 3, 4]) {
      d.push(v);
      vi.advanceTimersByTime(200);
    }
    expect(sent).toEqual([]);
    expect(d.isPending()).toBe(true);
    vi.advanceTimersByTime(99);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([4]);
    expect(d.isPending()).toBe(false);
  });

  it('cancel drops the waiting value', () => {
    const sent: number[] = [];
    const d = createDebouncer(300, (v: number) => sent.push(v));
    d.push(5);
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
  });
});
