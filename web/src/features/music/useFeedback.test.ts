// @vitest-environment jsdom
import { MUSIC_TEXTS } from '@guildhall/common';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { errorText } from './api.ts';
import { useFeedback } from './useFeedback.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('music banner', () => {
  it('keeps an error 5 s and a success 3 s', () => {
    const { result } = renderHook(() => useFeedback());
    act(() => result.current.showError(MUSIC_TEXTS.playFailed, 'You are not in a voice channel'));
    expect(result.current.feedback).toMatchObject({
      tone: 'error',
      detail: 'You are not in a voice channel',
    });
    act(() => vi.advanceTimersByTime(4999));
    expect(result.current.feedback).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.feedback).toBeNull();

    act(() => result.current.showSuccess('Queue cleared'));
    act(() => vi.advanceTimersByTime(2999));
    expect(result.current.feedback?.text).toBe('Queue cleared');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.feedback).toBeNull();
  });

  it('a new message replaces the shown one and restarts its clock', () => {
    const { result } = renderHook(() => useFeedback());
    act(() => result.current.showError(MUSIC_TEXTS.skipFailed));
    act(() => vi.advanceTimersByTime(4000));
    act(() => result.current.showError(MUSIC_TEXTS.seekFailed));
    act(() => vi.advanceTimersByTime(4000));
    expect(result.current.feedback?.text).toBe(MUSIC_TEXTS.seekFailed);
  });
});

describe('error text', () => {
  it("uses the response's error text, else 'API request failed ({status})', else the action's message", () => {
    expect(errorText(new ApiError('Nothing is playing', 409), MUSIC_TEXTS.skipFailed)).toBe(
      'Nothing is playing',
    );
    expect(errorText(new ApiError('HTTP 502', 502), MUSIC_TEXTS.skipFailed)).toBe('API request failed (502)');
    expect(errorText(new Error('boom'), MUSIC_TEXTS.skipFailed)).toBe(MUSIC_TEXTS.skipFailed);
  });
});
