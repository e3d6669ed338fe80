import {
  MUSIC_MEMBER_OPTIONS,
  type MusicOptionKey,
  type MusicServerOptions,
  MUSIC_QUEUE_TEXTS as T,
} from '@guildhall/common';

/**
 * The server's options (issue 48): fair queue (songs take turns by requester), no duplicates and autoplay.
 * Everyone sees which are on; moderators and above switch the queue rules, members who may control the
 * music switch autoplay.
 */
export function QueueOptions({
  options,
  canChange,
  canChangeMemberOptions,
  onChange,
}: {
  options: MusicServerOptions | null;
  /** The queue rules (moderators and above). */
  canChange: boolean;
  /** Autoplay (any member who may control the music). */
  canChangeMemberOptions: boolean;
  onChange: (option: MusicOptionKey, enabled: boolean) => void;
}) {
  const rows: { key: MusicOptionKey; label: string; hint: string }[] = [
    { key: 'autoplay', label: T.autoplay, hint: T.autoplayHint },
    { key: 'fairQueue', label: T.fairQueue, hint: T.fairQueueHint },
    { key: 'noDuplicates', label: T.noDuplicates, hint: T.noDuplicatesHint },
  ];
  const may = (key: MusicOptionKey) =>
    MUSIC_MEMBER_OPTIONS.includes(key) ? canChangeMemberOptions : canChange;
  return (
    <fieldset
      data-testid="queue-options"
      className="mb-4 flex flex-wrap items-center gap-x-5 gap-y-2 rounded-xl border border-border bg-bg/40 px-3 py-2 text-sm"
    >
      <legend className="sr-only">Queue options</legend>
      {rows.map((r) => (
        <label
          key={r.key}
          className="flex items-center gap-2"
          title={may(r.key) ? r.hint : T.optionsNeedModerator}
        >
          <input
            type="checkbox"
            data-testid={`option-${r.key}`}
            className="accent-brand"
            checked={options?.[r.key] ?? false}
            disabled={!may(r.key) || !options}
            onChange={(e) => onChange(r.key, e.target.checked)}
          />
          {r.label}
        </label>
      ))}
      {!canChange && canChangeMemberOptions && (
        <span className="text-xs text-muted">{T.optionsNeedModerator}</span>
      )}
    </fieldset>
  );
}
