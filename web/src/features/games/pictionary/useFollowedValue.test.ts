// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFollowedValue } from './useFollowedValue.ts';

/**
 * Issue 44: a lobby set up from Discord as well as the web. The host's settings editor follows changes
 * made elsewhere for every field the host has not edited, so Start Game never sends stale values over
 * newer ones; a field the host edited keeps the host's value.
 */
describe('useFollowedValue', () => {
  const render = (initial: { rounds: number; banks: string[]; game: string }) =>
    renderHook(
      (p: { rounds: number; banks: string[]; game: string }) => ({
        rounds: useFollowedValue(p.rounds, p.game),
        banks: useFollowedValue(p.banks, p.game, (b) => b.join(',')),
      }),
      { initialProps: initial },
    );

  it('an untouched field takes a change made elsewhere; an edited one keeps the edit', () => {
    const { result, rerender } = render({ rounds: 3, banks: ['general'], game: 'g1' });
    act(() => result.current.banks[1](['general', 'animals']));
    rerender({ rounds: 5, banks: ['food'], game: 'g1' });
    expect(result.current.rounds[0]).toBe(5);
    expect(result.current.banks[0]).toEqual(['general', 'animals']);
  });

  it('an array equal by content is no change; once saved, an edited field follows again', () => {
    const { result, rerender } = render({ rounds: 3, banks: ['general'], game: 'g1' });
    act(() => result.current.rounds[1](4));
    rerender({ rounds: 4, banks: ['general'], game: 'g1' }); // the host's save came back
    rerender({ rounds: 6, banks: ['general'], game: 'g1' }); // then changed elsewhere
    expect(result.current.rounds[0]).toBe(6);
  });

  it('another game opened loads its values, edits or not', () => {
    const { result, rerender } = render({ rounds: 3, banks: ['general'], game: 'g1' });
    act(() => result.current.rounds[1](8));
    rerender({ rounds: 2, banks: ['food'], game: 'g2' });
    expect(result.current.rounds[0]).toBe(2);
    expect(result.current.banks[0]).toEqual(['food']);
  });
});
