import { BookmarkPlus, Check } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import type { SongInfo } from './api.ts';
import type { PlaylistsState } from './usePlaylists.ts';

/** "Save to playlist": a small menu of the user's own playlists; a saved song shows "Saved" for 3 s. */
export function SaveToPlaylist({
  song,
  playlists,
  disabled,
}: {
  song: SongInfo;
  playlists: PlaylistsState;
  disabled?: boolean;
}) {
  const [isOpen, setOpen] = useState(false);
  const menuId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    // Keyboard users land on the first playlist; Escape returns them to the button.
    box.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(menuId)} button`)?.focus();
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      box.current?.querySelector<HTMLButtonElement>('button')?.focus();
    };
    window.addEventListener('pointerdown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('pointerdown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [isOpen, menuId]);

  const savedSomewhere = playlists.mine.some((p) => playlists.isSaved(p.id, song.url));
  return (
    <div ref={box} className="relative">
      <Button
        variant={savedSomewhere ? 'success' : 'ghost'}
        size="sm"
        aria-expanded={isOpen}
        aria-controls={menuId}
        aria-label={savedSomewhere ? `Saved ${song.title}` : `Save ${song.title} to a playlist`}
        data-testid="save-to-playlist"
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        icon={savedSomewhere ? <Check className="size-4" /> : <BookmarkPlus className="size-4" />}
      >
        <span className={savedSomewhere ? '' : 'sr-only sm:not-sr-only'}>
          {savedSomewhere ? 'Saved' : 'Save'}
        </span>
      </Button>
      {isOpen && (
        <div
          id={menuId}
          className="absolute right-0 z-20 mt-1 w-56 rounded-xl border border-border bg-surface p-1.5 shadow-2xl"
        >
          <p className="px-2 py-1 text-xs text-muted">Save to playlist</p>
          {playlists.mine.length === 0 ? (
            <p className="px-2 py-1.5 text-sm text-muted">Create a playlist in the Playlists tab first.</p>
          ) : (
            <ul>
              {playlists.mine.map((p) => {
                const isSaved = playlists.isSaved(p.id, song.url);
                return (
                  <li key={p.id}>
                    <button
                      type="button"
                      className="flex w-full items-center justify-between gap-2 rounded-lg px-2 py-1.5 text-left text-sm hover:bg-surface-2"
                      onClick={() => {
                        playlists.addSong(p.id, song);
                        if (!isSaved) setOpen(false);
                      }}
                    >
                      <span className="truncate">{p.name}</span>
                      {isSaved && (
                        <span
                          data-testid="saved-marker"
                          className="flex items-center gap-1 text-xs text-success"
                        >
                          <Check className="size-3.5" />
                          saved
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
