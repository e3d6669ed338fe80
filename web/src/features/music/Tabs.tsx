import { type ReactNode, useId, useRef } from 'react';
import { cn } from '../../ui/cn.ts';

export type TabDef<K extends string> = { key: K; label: string; icon?: ReactNode; badge?: ReactNode };

/**
 * WAI-ARIA tabs: arrow keys, Home and End move between tabs. Every panel stays mounted (hidden when not
 * selected), so a search or an open playlist survives switching tabs.
 */
export function Tabs<K extends string>({
  tabs,
  selected,
  onSelect,
  panels,
}: {
  tabs: TabDef<K>[];
  selected: K;
  onSelect: (key: K) => void;
  panels: Record<K, ReactNode>;
}) {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const move = (from: number, delta: number | 'first' | 'last') => {
    const to =
      delta === 'first' ? 0 : delta === 'last' ? tabs.length - 1 : (from + delta + tabs.length) % tabs.length;
    const tab = tabs[to];
    if (!tab) return;
    onSelect(tab.key);
    refs.current.get(tab.key)?.focus();
  };
  return (
    <div>
      <div
        role="tablist"
        aria-label="Music"
        className="mb-4 flex gap-1 rounded-xl border border-border bg-bg/50 p-1"
      >
        {tabs.map((t, i) => {
          const isSelected = t.key === selected;
          return (
            <button
              key={t.key}
              ref={(el) => {
                if (el) refs.current.set(t.key, el);
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${t.key}`}
              aria-selected={isSelected}
              aria-controls={`${base}-panel-${t.key}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(t.key)}
              onKeyDown={(e) => {
                const delta = { ArrowRight: 1, ArrowLeft: -1, Home: 'first', End: 'last' } as const;
                const d = delta[e.key as keyof typeof delta];
                if (d === undefined) return;
                e.preventDefault();
                move(i, d);
              }}
              className={cn(
                // On a phone five tabs share ~300 px: each takes the width of its label (a badge included) in a
                // smaller type, instead of an equal fifth its label and badge overflow.
                'flex min-w-0 flex-auto items-center justify-center gap-1 rounded-lg px-1.5 py-2 text-xs font-medium transition-colors sm:flex-1 sm:gap-2 sm:px-3 sm:text-sm [&>svg]:hidden sm:[&>svg]:block',
                isSelected ? 'bg-surface-2 text-text shadow-sm' : 'text-muted hover:text-text',
              )}
            >
              {t.icon}
              {t.label}
              {t.badge}
            </button>
          );
        })}
      </div>
      {tabs.map((t) => (
        <div
          key={t.key}
          role="tabpanel"
          id={`${base}-panel-${t.key}`}
          aria-labelledby={`${base}-tab-${t.key}`}
          hidden={t.key !== selected}
        >
          {panels[t.key]}
        </div>
      ))}
    </div>
  );
}
