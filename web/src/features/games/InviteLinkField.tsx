import { CopyButton } from '../../ui/CopyButton.tsx';
import { cn } from '../../ui/cn.ts';

/** A game's invite link: the address, selected on focus, and a copy button (both games' invites, issue 29). */
export function InviteLinkField({
  url,
  label,
  inputClassName,
}: {
  url: string;
  label: string;
  inputClassName: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        readOnly
        value={url}
        aria-label={label}
        data-testid="invite-link"
        onFocus={(e) => e.currentTarget.select()}
        className={cn(
          'min-w-0 flex-1 rounded-lg border border-border px-3 py-1.5 font-mono text-xs',
          inputClassName,
        )}
      />
      <CopyButton value={url} label={label} />
    </div>
  );
}
