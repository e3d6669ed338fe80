import { MUSIC_HISTORY_SHOWN, type PlaybackStatus } from '@guildhall/common';
import { History } from 'lucide-react';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { formatTime } from './playback-clock.ts';
import { totalSeconds } from './queue-order.ts';

/** Current Session: queue length, total music time (playing song and queue), the last 3 songs. */
export function SessionPanel({ status }: { status: PlaybackStatus | null }) {
  const queue = status?.queue ?? [];
  const playing = status?.currentSong ? [status.currentSong] : [];
  const history = (status?.history ?? []).slice(0, MUSIC_HISTORY_SHOWN);
  return (
    <Card className="p-4 sm:p-5" data-testid="session-panel">
      <CardTitle icon={<History className="size-4" />}>Current Session</CardTitle>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-xl bg-bg/50 p-3">
          <dt className="text-xs text-muted">Queue</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="queue-length">
            {queue.length} song{queue.length === 1 ? '' : 's'}
          </dd>
        </div>
        <div className="rounded-xl bg-bg/50 p-3">
          <dt className="text-xs text-muted">Total music time</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="total-time">
            {formatTime(totalSeconds([...playing, ...queue]))}
          </dd>
        </div>
      </dl>
      <h3 className="mt-4 mb-2 text-xs font-medium uppercase tracking-wide text-muted">Recent history</h3>
      {history.length === 0 ? (
        // Recent history lists songs that have finished: while the session's first song plays, "Nothing
        // played yet" beside it read as a contradiction.
        <p className="text-sm text-muted" data-testid="history-empty">
          {playing.length > 0 ? 'No earlier songs this session.' : 'Nothing played yet.'}
        </p>
      ) : (
        <ol className="space-y-1 text-sm" data-testid="history">
          {history.map((s) => (
            <li key={s.entryId} className="truncate" title={s.title}>
              {s.title}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
