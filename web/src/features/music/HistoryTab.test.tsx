// @vitest-environment jsdom
import { MUSIC_HISTORY_TEXTS as H, type MusicHistoryEntry } from '@guildhall/common';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryTab } from './HistoryTab.tsx';
import type { PlaylistsState } from './usePlaylists.ts';

const api = vi.hoisted(() => ({ fetchHistory: vi.fn() }));
vi.mock('./api.ts', async (original) => ({ ...(await original<typeof import('./api.ts')>()), ...api }));

const entry = (n: number, title: string): MusicHistoryEntry => ({
  id: `h${n}`,
  songId: `f${n}`,
  youtube_id: `f${n}`,
  title,
  uploader: 'Fixture Band',
  duration: 125,
  url: `library:f${n}`,
  thumbnail: null,
  platform: 'library',
  requestedBy: { id: '1', avatar: null, displayName: 'ann' },
  playedAt: new Date().toISOString(),
});
const playlists = {
  mine: [{ id: 'p1', name: 'Mine' }],
  isSaved: () => false,
  addSong: vi.fn(),
} as unknown as PlaylistsState;

let qc: QueryClient;
const wrap = (ui: ReactNode) => <QueryClientProvider client={qc}>{ui}</QueryClientProvider>;
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  api.fetchHistory.mockReset();
});
afterEach(cleanup);

describe('History tab (issue 48)', () => {
  it('lists what played with who asked; Play again and Save act on the song', async () => {
    api.fetchHistory.mockResolvedValue([entry(2, 'Second Song'), entry(1, 'First Song')]);
    const onPlay = vi.fn();
    render(
      wrap(
        <HistoryTab guildId="1" currentEntryId="e1" isActive canPlay onPlay={onPlay} playlists={playlists} />,
      ),
    );
    const rows = await screen.findAllByTestId('history-item');
    expect(rows.map((r) => r.getAttribute('data-title'))).toEqual(['Second Song', 'First Song']);
    expect(rows[0]?.textContent).toContain('Fixture Band · ann');
    fireEvent.click(screen.getByRole('button', { name: `${H.playAgain}: First Song` }));
    expect(onPlay).toHaveBeenCalledWith(expect.objectContaining({ url: 'library:f1', title: 'First Song' }));
    fireEvent.click(screen.getAllByTestId('save-to-playlist')[0] as HTMLElement);
    fireEvent.click(screen.getByRole('button', { name: 'Mine' }));
    expect(playlists.addSong).toHaveBeenCalledWith('p1', expect.objectContaining({ url: 'library:f2' }));
  });

  it('searches on the server; says when nothing matches; asks nothing while the tab is closed', async () => {
    render(
      wrap(
        <HistoryTab
          guildId="1"
          currentEntryId={null}
          isActive={false}
          canPlay
          onPlay={vi.fn()}
          playlists={playlists}
        />,
      ),
    );
    expect(api.fetchHistory).not.toHaveBeenCalled();
    cleanup();
    api.fetchHistory.mockResolvedValue([]);
    render(
      wrap(
        <HistoryTab
          guildId="1"
          currentEntryId={null}
          isActive
          canPlay
          onPlay={vi.fn()}
          playlists={playlists}
        />,
      ),
    );
    expect(await screen.findByText(H.empty)).toBeTruthy();
    fireEvent.change(screen.getByTestId('history-search'), { target: { value: 'zzz' } });
    expect(await screen.findByText(H.noMatch)).toBeTruthy();
    expect(api.fetchHistory).toHaveBeenLastCalledWith('1', 'zzz');
  });
});
