// @vitest-environment jsdom
import { OSINT_PROGRESS_EVENT } from '@guildhall/common';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => void;

/** Just enough of a socket.io-client Socket: listeners, and a way to push an event. */
class FakeSocket {
  connected = true;
  active = true;
  private handlers = new Map<string, Set<Handler>>();
  on(event: string, fn: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(fn);
    return this;
  }
  off(event: string, fn: Handler) {
    this.handlers.get(event)?.delete(fn);
    return this;
  }
  close() {
    this.active = false;
  }
  push(event: string, payload: unknown) {
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(payload);
  }
  listeners(event: string) {
    return this.handlers.get(event)?.size ?? 0;
  }
}

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: () => {
    const s = new FakeSocket();
    sockets.push(s);
    return s;
  },
}));
vi.mock('../../auth/useAuth.ts', () => ({ useAuth: () => ({ token: 'token-osint' }) }));

const { useScanProgress } = await import('./useScanProgress.ts');

describe('useScanProgress', () => {
  it('accumulates the running search’s pushes (checked, total, hits) and ignores other searches', () => {
    const { result, rerender, unmount } = renderHook(({ id }) => useScanProgress(id), {
      initialProps: { id: 'search-aaaa' as string | null },
    });
    const socket = sockets.at(-1)!;
    expect(result.current).toBeNull();

    act(() => {
      socket.push(OSINT_PROGRESS_EVENT, { searchId: 'search-aaaa', checked: 0, total: 40, hits: [] });
      socket.push(OSINT_PROGRESS_EVENT, {
        searchId: 'other-tab',
        checked: 39,
        total: 40,
        hits: [{ name: 'X', url: 'u' }],
      });
      socket.push(OSINT_PROGRESS_EVENT, {
        searchId: 'search-aaaa',
        checked: 12,
        total: 40,
        hits: [{ name: 'Reddit', url: 'r' }],
      });
      socket.push(OSINT_PROGRESS_EVENT, {
        searchId: 'search-aaaa',
        checked: 20,
        total: 40,
        hits: [{ name: 'Twitch', url: 't' }],
      });
    });
    expect(result.current).toEqual({
      checked: 20,
      total: 40,
      hits: [
        { name: 'Reddit', url: 'r' },
        { name: 'Twitch', url: 't' },
      ],
    });

    // A new search starts from nothing; the old one's late pushes are ignored.
    rerender({ id: 'search-bbbb' });
    expect(result.current).toBeNull();
    act(() =>
      socket.push(OSINT_PROGRESS_EVENT, { searchId: 'search-aaaa', checked: 40, total: 40, hits: [] }),
    );
    expect(result.current).toBeNull();

    unmount();
    expect(socket.listeners(OSINT_PROGRESS_EVENT)).toBe(0);
  });
});
