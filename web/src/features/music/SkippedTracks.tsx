import type { SpotifySkipped } from '@guildhall/common';
import { ListX } from 'lucide-react';
import { CloseButton } from '../../ui/CloseButton.tsx';

/**
 * The tracks of a Spotify link that were not queued (issue 48), each with its reason: no song was put in
 * their place, and the member sees which and why. Stays until dismissed or the next play.
 */
export function SkippedTracks({ skipped, onDismiss }: { skipped: SpotifySkipped[]; onDismiss: () => void }) {
  if (skipped.length === 0) return null;
  return (
    <section
      data-testid="spotify-skipped"
      aria-label="Skipped Spotify tracks"
      className="rounded-xl border border-warning/50 bg-surface px-4 py-3 text-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="flex items-center gap-2 font-medium text-warning-text">
          <ListX className="size-4 shrink-0" aria-hidden />
          {skipped.length === 1 ? '1 track skipped' : `${skipped.length} tracks skipped`}
        </h2>
        <CloseButton label="Dismiss the skipped tracks" onClick={onDismiss} size="sm" className="-m-1" />
      </div>
      <ul className="mt-2 space-y-1">
        {skipped.slice(0, 100).map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list may hold the same track twice, and never reorders
          <li key={i} data-testid="spotify-skipped-item" className="break-words">
            <span className="font-medium">{s.title}</span>
            {s.artist && <span className="text-muted"> · {s.artist}</span>}
            <span className="text-muted">: {s.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
