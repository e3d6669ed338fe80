import { MUSIC_QUEUE_TEXTS as T, type MusicOptionKey, type MusicServerOptions } from '@guildhall/common';

/**
 * The server's queue options (issue 48): fair queue (songs take turns by requester) and no duplicates.
 * Everyone sees which are on; moderators and above switch them.
 */
export function QueueOptions({
  options,
  canChange,
  onChange,
}: {
  options: MusicServerOptions | null;
  canChange: boolean;
  onChange: (option: MusicOptionKey, enabled: boolean) => void;
}) {
  const rows: { key: MusicOptionKey; label: string; hint: string }[] = [
    { key: 'fairQueue', label: T.fairQueue, hint: T.fairQueueHint },
    { key: 'noDuplicates', label: T.noDuplicates, hint: T.noDuplicatesHint },
  ];
  return (
    <fieldset
      data-testid="queue-options"
      className="mb-4 flex flex-wrap items-center gap-x-5 gap-y-2 rounded-xl border border-border bg-bg/40 px-3 py-2 text-sm"
    >
      <legend className="sr-only">Queue options</legend>
      {rows.map((r) => (
        <label key={r.key} className="flex items-center gap-2" title={canChange ? r.hint : T.optionsNeedModerator}>
          <input
            type="checkbox"
            data-testid={`option-${r.key}`}
            className="accent-brand"
            checked={options?.[r.key] ?? false}
            disabled={!canChange || !options}
            onChange={(e) => onChange(r.key, e.target.checked)}
          />
          {r.label}
        </label>
      ))}
      {!canChange && <span className="text-xs text-muted">{T.optionsNeedModerator}</span>}
    </fieldset>
  );
}
