import { OSINT_TYPE_LABELS, OSINT_TYPES, type OsintType } from '@guildhall/common';
import { AtSign, Globe, Network, Phone, Search, User, UserSearch } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';

const ICONS: Record<OsintType, typeof AtSign> = {
  email: AtSign,
  phone: Phone,
  username: User,
  domain: Globe,
  ip: Network,
  person: UserSearch,
};

/** §2: six type buttons, the value input, and Search (disabled while the input is empty or a search runs). */
export function SearchForm({
  type,
  query,
  running,
  onType,
  onQuery,
  onSubmit,
}: {
  type: OsintType;
  query: string;
  running: boolean;
  onType: (t: OsintType) => void;
  onQuery: (q: string) => void;
  onSubmit: () => void;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (query.trim() && !running) onSubmit();
  };
  return (
    <Card>
      <form onSubmit={submit} className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-muted">Search type</legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6" data-testid="osint-types">
            {OSINT_TYPES.map((t) => {
              const Icon = ICONS[t];
              const active = t === type;
              return (
                <button
                  key={t}
                  type="button"
                  aria-pressed={active}
                  data-testid={`osint-type-${t}`}
                  onClick={() => onType(t)}
                  className={cn(
                    'flex h-16 cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border text-sm font-medium transition-colors',
                    active
                      ? 'border-brand/60 bg-brand/15 text-brand-text'
                      : 'border-border bg-surface-2 text-muted hover:border-muted/60 hover:text-text',
                  )}
                >
                  <Icon className="size-5" />
                  {OSINT_TYPE_LABELS[t].label}
                </button>
              );
            })}
          </div>
        </fieldset>
        <div className="flex flex-col gap-2 sm:flex-row">
          <label className="sr-only" htmlFor="osint-query">
            Value to search
          </label>
          <input
            id="osint-query"
            data-testid="osint-query"
            value={query}
            onChange={(e) => onQuery(e.target.value)}
            placeholder={`Enter ${OSINT_TYPE_LABELS[type].label.toLowerCase()} to search… e.g. ${OSINT_TYPE_LABELS[type].placeholder}`}
            autoComplete="off"
            spellCheck={false}
            className="h-11 w-full min-w-0 rounded-lg sm:flex-1 border border-border bg-bg/60 px-3 text-sm text-text placeholder:text-muted/70 focus:border-brand/60 focus:outline-none"
          />
          <Button
            type="submit"
            size="md"
            className="h-11"
            disabled={!query.trim() || running}
            icon={running ? <Spinner className="size-4" /> : <Search className="size-4" />}
          >
            {running ? 'Searching…' : 'Search'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
