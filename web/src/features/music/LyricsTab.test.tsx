// @vitest-environment jsdom
import {
  DEFAULT_MUSIC_OPTIONS,
  FLAT_EQ,
  type MusicLyrics,
  type PlaybackStatus,
  MUSIC_LYRICS_TEXTS as T,
} from '@guildhall/common';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { LyricsTab } from './LyricsTab.tsx';

const api = vi.hoisted(() => ({ fetchLyrics: vi.fn() }));
vi.mock('./api.ts', async (original) => ({ ...(await original<typeof import('./api.ts')>()), ...api }));

const song = {
  id: 'f1',
  youtube_id: 'f1',
  title: 'Artist - Tone',
  uploader: 'Library',
  duration: 200,
  url: 'library:f1',
  thumbnail: null,
  platform: 'library' as const,
  entryId: 'e1',
  requestedBy: { avatar: null, displayName: 'ann' },
};
// Paused: the position stays where the status puts it, so the highlighted line is exact.
const status = (over: Partial<PlaybackStatus> = {}): PlaybackStatus => ({
  guildId: '1',
  connected: true,
  isPlaying: false,
  isPaused: true,
  state: 'paused',
  currentSong: song,
  queue: [],
  history: [],
  activeEffects: [],
  eqSettings: FLAT_EQ,
  elapsedTime: 5,
  playbackRate: 1,
  serverTime: '2026-11-23T18:00:00.000Z',
  voiceChannel: { id: '9', name: 'Lounge' },
  listeners: 2,
  idle: false,
  botState: 'online',
  botStateSince: null,
  volume: 100,
  normalize: true,
  loop: 'off',
  options: DEFAULT_MUSIC_OPTIONS,
  skipVotes: { voters: [], needed: 1 },
  ...over,
});
const lyrics = (over: Partial<MusicLyrics>): MusicLyrics => ({
  guildId: '1',
  state: 'synced',
  entryId: 'e1',
  title: song.title,
  lines: [
    { time: 1.5, text: 'First line' },
    { time: 4, text: 'Second line' },
    { time: 7.25, text: 'Chorus' },
  ],
  matched: { artist: 'Artist', track: 'Tone' },
  ...over,
});

let qc: QueryClient;
const wrap = (ui: ReactNode) => <QueryClientProvider client={qc}>{ui}</QueryClientProvider>;
const entry = (s: PlaybackStatus) => ({ status: s, receivedAt: performance.now() });

beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  api.fetchLyrics.mockReset();
});
afterEach(cleanup);

describe('Lyrics tab', () => {
  it('highlights the line at the playback position and follows a seek', async () => {
    api.fetchLyrics.mockResolvedValue(lyrics({}));
    const view = render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive />));
    const current = await screen.findByText('Second line');
    expect(current.getAttribute('aria-current')).toBe('true');
    expect(screen.getByText('First line').getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('list', { name: T.tab }).tabIndex).toBe(0);
    view.rerender(wrap(<LyricsTab guildId="1" entry={entry(status({ elapsedTime: 8 }))} isActive />));
    expect(screen.getByText('Chorus').getAttribute('aria-current')).toBe('true');
    expect(screen.getByText('Second line').getAttribute('aria-current')).toBeNull();
    expect(api.fetchLyrics).toHaveBeenCalledTimes(1);
  });

  it('asks nothing until the tab is opened, and nothing when nothing plays', () => {
    render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive={false} />));
    cleanup();
    render(wrap(<LyricsTab guildId="1" entry={entry(status({ currentSong: null }))} isActive />));
    expect(screen.getByText(T.nothingPlaying)).toBeTruthy();
    expect(api.fetchLyrics).not.toHaveBeenCalled();
  });

  it('shows plain lines without a highlight, "No lyrics found", and "unavailable" with a retry', async () => {
    api.fetchLyrics.mockResolvedValueOnce(
      lyrics({ state: 'plain', lines: [{ time: null, text: 'Just words' }] }),
    );
    render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive />));
    expect((await screen.findByText('Just words')).getAttribute('aria-current')).toBeNull();
    cleanup();

    qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    api.fetchLyrics.mockResolvedValueOnce(lyrics({ state: 'not_found', lines: [], matched: null }));
    render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive />));
    expect(await screen.findByText(T.notFound)).toBeTruthy();
    cleanup();

    qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    api.fetchLyrics.mockResolvedValueOnce(lyrics({ state: 'unavailable', lines: [], matched: null }));
    render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive />));
    expect(await screen.findByText(T.unavailable)).toBeTruthy();
    api.fetchLyrics.mockResolvedValueOnce(lyrics({}));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Chorus')).toBeTruthy();
  });

  it('a failed request says "unavailable", never "not found"', async () => {
    api.fetchLyrics.mockRejectedValue(new ApiError('Too many requests', 429));
    render(wrap(<LyricsTab guildId="1" entry={entry(status())} isActive />));
    expect(await screen.findByText(T.unavailable)).toBeTruthy();
    expect(screen.queryByText(T.notFound)).toBeNull();
  });
});
