// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_CHANGED_EVENT, SESSION_INVALID_EVENT } from '../api/client.ts';

type Handler = (...args: unknown[]) => void;

/** Just enough of socket.io-client's Manager (`socket.io`): its reconnect events. */
class FakeManager {
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
  fire(event: string, ...args: unknown[]) {
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(...args);
  }
}

/** Just enough of a socket.io-client Socket to drive the hook. */
class FakeSocket {
  readonly io = new FakeManager();
  connected = false;
  active = true;
  ack: unknown = { ok: true };
  readonly auth: unknown;
  readonly sent: [string, unknown][] = [];
  private handlers = new Map<string, Set<Handler>>();
  constructor(opts: { auth: unknown }) {
    this.auth = opts.auth;
  }
  on(event: string, fn: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(fn);
    return this;
  }
  off(event: string, fn: Handler) {
    this.handlers.get(event)?.delete(fn);
    return this;
  }
  emit(event: string, payload: unknown) {
    this.sent.push([event, payload]);
  }
  timeout() {
    return {
      emitWithAck: async (event: string, payload: unknown) => {
        this.sent.push([event, payload]);
        return this.ack;
      },
    };
  }
  close() {
    this.active = false;
    this.connected = false;
  }
  /** socket.connect(): the client asks to reconnect (counted; the test fires 'connect' itself). */
  connects = 0;
  connect() {
    this.connects += 1;
    return this;
  }
  /** The server side: connect, disconnect, push. */
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(...args);
  }
  listeners(event: string) {
    return this.handlers.get(event)?.size ?? 0;
  }
}

const sockets: FakeSocket[] = [];
let token = 'token-0';

vi.mock('socket.io-client', () => ({
  io: (opts: { auth: unknown }) => {
    const s = new FakeSocket(opts);
    sockets.push(s);
    return s;
  },
}));
vi.mock('../auth/useAuth.ts', () => ({ useAuth: () => ({ token }) }));

const { useRealtimeRoom } = await import('./useRealtimeRoom.ts');

const flush = () => act(async () => {});
const subscribes = (s: FakeSocket) => s.sent.filter(([e]) => e === 'subscribe');

beforeEach(() => {
  // A fresh token per test gives each test a socket of its own.
  token = `token-${Math.random()}`;
});

describe('useRealtimeRoom', () => {
  it('joins the room once connected, delivers its events, and leaves on unmount', async () => {
    const seen: unknown[] = [];
    const { result, unmount } = renderHook(() =>
      useRealtimeRoom('tictactoe:g1', 'tictactoe:state', (p) => seen.push(p)),
    );
    const socket = sockets.at(-1)!;
    expect(socket.auth).toEqual({ token });
    expect(result.current).toBe('connecting');

    socket.fire('connect');
    await flush();
    expect(subscribes(socket)).toEqual([['subscribe', { room: 'tictactoe:g1' }]]);
    expect(result.current).toBe('live');

    socket.fire('tictactoe:state', { game: { id: 'g1', version: 2 } });
    expect(seen).toEqual([{ game: { id: 'g1', version: 2 } }]);

    unmount();
    expect(socket.sent.at(-1)).toEqual(['unsubscribe', { room: 'tictactoe:g1' }]);
    expect(socket.listeners('tictactoe:state')).toBe(0);
  });

  it('joins again after every reconnect, which is how a returning client gets the full state', async () => {
    const { result } = renderHook(() => useRealtimeRoom('tictactoe:g2', 'tictactoe:state', () => {}));
    const socket = sockets.at(-1)!;
    socket.fire('connect');
    await flush();
    socket.fire('disconnect');
    await flush();
    expect(result.current).toBe('connecting');
    socket.fire('connect');
    await flush();
    expect(subscribes(socket)).toHaveLength(2);
    expect(result.current).toBe('live');
  });

  it('shows off when the server refuses the room or the handshake', async () => {
    const { result } = renderHook(() => useRealtimeRoom('tictactoe:g3', 'tictactoe:state', () => {}));
    const socket = sockets.at(-1)!;
    socket.ack = { ok: false, error: 'You are not a player in this game', code: 'FORBIDDEN' };
    socket.fire('connect');
    await flush();
    expect(result.current).toBe('off');

    socket.fire(
      'connect_error',
      Object.assign(new Error('Session expired'), { data: { code: 'AUTH_REQUIRED' } }),
    );
    await flush();
    expect(result.current).toBe('off');
    expect(socket.active).toBe(false); // refused for good: no retrying
  });

  it('signs the tab out when the server ends the session', async () => {
    const onInvalid = vi.fn();
    window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
    renderHook(() => useRealtimeRoom('tictactoe:g4', 'tictactoe:state', () => {}));
    sockets.at(-1)!.fire('session:ended', { code: 'AUTH_REQUIRED', message: 'Session expired or revoked.' });
    expect(onInvalid).toHaveBeenCalledTimes(1);
    window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
  });

  it('a level change (ACCESS_CHANGED) re-reads the account and reconnects, joining the room again; it does not sign out', async () => {
    const onInvalid = vi.fn();
    const onChanged = vi.fn();
    window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
    window.addEventListener(ACCESS_CHANGED_EVENT, onChanged);
    const { result, unmount } = renderHook(() =>
      useRealtimeRoom('tictactoe:g6', 'tictactoe:state', () => {}),
    );
    const socket = sockets.at(-1)!;
    socket.fire('connect');
    await flush();
    socket.fire('session:ended', { code: 'ACCESS_CHANGED', message: 'Your access level changed.' });
    socket.fire('disconnect', 'io server disconnect');
    await flush();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(onInvalid).not.toHaveBeenCalled();
    expect(socket.connects).toBe(1);
    socket.fire('connect');
    await flush();
    expect(subscribes(socket)).toHaveLength(2);
    expect(result.current).toBe('live');
    // A later server-side disconnect without ACCESS_CHANGED is not retried (Socket.IO's rule stands).
    socket.fire('disconnect', 'io server disconnect');
    expect(socket.connects).toBe(1);
    unmount();
    window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
    window.removeEventListener(ACCESS_CHANGED_EVENT, onChanged);
  });

  it('with no room it does not connect at all', () => {
    const before = sockets.length;
    const { result } = renderHook(() => useRealtimeRoom(null, 'tictactoe:state', () => {}));
    expect(sockets.length).toBe(before);
    expect(result.current).toBe('off');
  });

  it('shows off (polling) while the channel cannot be reached, and live once it connects', async () => {
    const { result } = renderHook(() => useRealtimeRoom('tictactoe:g5', 'tictactoe:state', () => {}));
    const socket = sockets.at(-1)!;
    expect(result.current).toBe('connecting');
    socket.fire('connect_error', new Error('websocket error'));
    await flush();
    expect(result.current).toBe('off');
    socket.fire('connect');
    await flush();
    expect(result.current).toBe('live');
    // Closed before the handshake (a proxy dropping WebSockets): no error, only retries.
    socket.fire('disconnect');
    await flush();
    expect(result.current).toBe('connecting');
    socket.io.fire('reconnect_attempt', 1);
    await flush();
    expect(result.current).toBe('off');
    socket.fire('connect');
    await flush();
    expect(result.current).toBe('live');
  });
});
