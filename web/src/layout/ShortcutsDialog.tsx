import { Fragment, useEffect, useState } from 'react';
import { Modal } from '../ui/Modal.tsx';
import { isTyping, SHORTCUTS } from './shortcuts.ts';

/** Opens the shortcuts dialog on `?` (not while typing in a field, not over another dialog). */
export function useShortcutHelp(): [boolean, (open: boolean) => void] {
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (isTyping(e.target) || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return [isOpen, setOpen];
}

/** The one list of keyboard shortcuts (issue 31). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="sm:max-w-lg">
      <div className="space-y-5" data-testid="shortcuts">
        {SHORTCUTS.map((group) => (
          <section key={group.where}>
            <h3 className="mb-2 text-xs font-semibold tracking-wider text-muted uppercase">{group.where}</h3>
            <dl className="divide-y divide-border/60 text-sm">
              {group.items.map((item) => (
                <div key={`${item.does}`} className="flex items-start justify-between gap-4 py-2">
                  <dt className="flex shrink-0 flex-wrap items-center gap-1">
                    {item.keys.map((combo, i) => (
                      <Fragment key={combo.join('+')}>
                        {i > 0 && <span className="text-xs text-muted">or</span>}
                        {combo.map((key, j) => (
                          <Fragment key={key}>
                            {j > 0 && <span className="text-xs text-muted">+</span>}
                            <kbd className="min-w-6 rounded-md border border-border bg-surface-2 px-1.5 py-0.5 text-center font-mono text-xs text-text">
                              {key}
                            </kbd>
                          </Fragment>
                        ))}
                      </Fragment>
                    ))}
                  </dt>
                  <dd className="text-right text-muted">{item.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
