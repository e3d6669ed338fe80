// @vitest-environment jsdom
import { MUSIC_SPOTIFY_SKIP_REASONS } from '@guildhall/common';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isSongLink } from './SearchTab.tsx';
import { SkippedTracks } from './SkippedTracks.tsx';

afterEach(cleanup);

describe('skipped Spotify tracks (issue 48)', () => {
  it('lists each skipped track with its reason until dismissed', () => {
    const onDismiss = vi.fn();
    render(
      <SkippedTracks
        skipped={[
          { title: 'Third Wish', artist: 'Fixture Band', reason: MUSIC_SPOTIFY_SKIP_REASONS.noMatch },
        ]}
        onDismiss={onDismiss}
      />,
    );
    expect(screen.getByText('1 track skipped')).toBeTruthy();
    expect(screen.getByTestId('spotify-skipped-item').textContent).toBe(
      `Third Wish · Fixture Band: ${MUSIC_SPOTIFY_SKIP_REASONS.noMatch}`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the skipped tracks' }));
    expect(onDismiss).toHaveBeenCalled();
  });

  it('shows nothing when nothing was skipped; a pasted Spotify link or URI is played, not searched', () => {
    const { container } = render(<SkippedTracks skipped={[]} onDismiss={vi.fn()} />);
    expect(container.innerHTML).toBe('');
    expect(isSongLink('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M')).toBe(true);
    expect(isSongLink('spotify:track:4uLU6hMCjMI75M1A2tKUQC')).toBe(true);
  });
});
