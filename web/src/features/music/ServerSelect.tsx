import type { Guild } from '@guildhall/common';
import { Server } from 'lucide-react';

/** The server selector, shown only when the bot is on more than one server (portal-tools §2). */
export function ServerSelect({
  guilds,
  value,
  onChange,
}: {
  guilds: Guild[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  if (guilds.length <= 1) return null;
  return (
    <label className="flex items-center gap-2 text-sm text-muted">
      <Server className="size-4" />
      <span className="sr-only sm:not-sr-only">Server</span>
      <select
        data-testid="server-select"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        className="h-9 rounded-lg border border-border bg-surface-2 px-2 text-sm text-text focus:border-brand focus:outline-none"
      >
        {guilds.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name} ({g.memberCount} members)
          </option>
        ))}
      </select>
    </label>
  );
}
