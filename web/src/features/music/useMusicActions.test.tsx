// @vitest-environment jsdom
import { DEFAULT_MUSIC_OPTIONS, FLAT_EQ, MUSIC_TEXTS, type PlaybackStatus } from '@guildhall/common';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';

const api = vi.hoisted(() => ({
  setEffects: vi.fn(),
  reorderQueue: vi.fn(),
  fetchStatus: vi.fn(),
  play: vi.fn(),
}));
vi.mock('./api.ts', async (original) => ({ ...(await original<typeof import('./api.ts')>()), ...api }));
let userId = '510000000000000001';
vi.mock('../../auth/useAuth.ts', () => ({ useAuth: () => ({ user: { id: userId } }) }));

const { useMusicActions } = await import('./useMusicActions.ts');
const { statusKey, useMusicStatus } = await import('./useMusicStatus.ts');

const song = (n: number) => ({
  id: `f${n}`,
  youtube_id: `f${n}`,
  title: `Song ${n}`,
  uploader: 'Library',
  duration: 100,
  url: `library:f${n}`,
  thumbnail: null,
  platform: 'library' as const,
  entryId: `e${n}`,
  requestedBy: { avatar: null, displayName: 'ann' },
});
const server: PlaybackStatus = {
  guildId: '1',
  connected: true,
  isPlaying: true,
  isPaused: false,
  state: 'playing',
  currentSong: song(0),
  queue: [song(1), song(2), song(3)],
  history: [],
  activeEffects: [],
  eqSettings: FLAT_EQ,
  elapsedTime: 5,
  playbackRate: 1,
  serverTime: '2026-11-23T18:00:00.000Z',
  voiceChannel: { id: '9', name: 'Lounge' },
  listeners: 1,
  idle: false,
  botState: 'online',
  botStateSince: null,
  volume: 100,
  normalize: true,
  loop: 'off',
  options: DEFAULT_MUSIC_OPTIONS,
  skipVotes: { voters: [], needed: 1 },
};

function setup() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(statusKey('1'), { status: server, receivedAt: 0 });
  const feedback = { showError: vi.fn(), showSuccess: vi.fn() };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  );
  // The page watches the status (so a failure's reload refetches it) while it acts.
  const { result } = renderHook(
    () => {
      useMusicStatus('1');
      return useMusicActions('1', feedback);
    },
    { wrapper },
  );
  const shown = () => (qc.getQueryData(statusKey('1')) as { status: PlaybackStatus }).status;
  return { qc, result, feedback, shown };
}

beforeEach(() => {
  vi.resetAllMocks();
  userId = '510000000000000001';
  api.fetchStatus.mockResolvedValue(server);
});

describe('music actions', () => {
  it('shows a reorder at once, then the server answer', async () => {
    let answer: (v: unknown) => void = () => {};
    api.reorderQueue.mockReturnValue(new Promise((r) => (answer = r)));
    const { result, shown } = setup();
    act(() => result.current.reorder(2, 0));
    await waitFor(() => expect(shown().queue.map((s) => s.title)).toEqual(['Song 3', 'Song 1', 'Song 2']));
    expect(api.reorderQueue).toHaveBeenCalledWith('1', 2, 0);
    const confirmed = {
      ...server,
      queue: [song(3), song(1), song(2)],
      serverTime: '2026-11-23T18:00:01.000Z',
    };
    await act(async () => answer({ message: 'ok', status: confirmed }));
    await waitFor(() => expect(shown().serverTime).toBe(confirmed.serverTime));
  });

  it('shows an effect at once; on failure the banner says so and the real state comes back', async () => {
    api.fetchStatus
      .mockResolvedValueOnce(server)
      .mockResolvedValue({ ...server, serverTime: '2026-11-23T18:00:02.000Z' });
    let reject: (e: unknown) => void = () => {};
    api.setEffects.mockReturnValue(new Promise((_, r) => (reject = r)));
    const { result, feedback, shown } = setup();
    await waitFor(() => expect(api.fetchStatus).toHaveBeenCalledTimes(1));
    act(() => result.current.setEffects(['nightcore']));
    await waitFor(() => expect(shown().activeEffects).toEqual(['nightcore']));
    await act(async () => reject(new ApiError('Nothing is playing', 409)));
    await waitFor(() =>
      expect(feedback.showError).toHaveBeenCalledWith(MUSIC_TEXTS.effectFailed, 'Nothing is playing'),
    );
    await waitFor(() => expect(shown().activeEffects).toEqual([]));
    expect(shown().serverTime).toBe('2026-11-23T18:00:02.000Z');
  });

  it('refuses to play for a sign-in without a Discord id, before any call', async () => {
    userId = 'access-code-demo';
    const { result, feedback } = setup();
    act(() => result.current.play({ url: 'library:f1', title: 'Song 1' }));
    await waitFor(() => expect(feedback.showError).toHaveBeenCalledWith(MUSIC_TEXTS.discordIdMissing));
    expect(api.play).not.toHaveBeenCalled();
  });
});
