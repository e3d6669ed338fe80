import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { CloseButton } from './CloseButton.tsx';
import { cn } from './cn.ts';

/**
 * A modal dialog on the browser's own `<dialog>` (showModal): the page behind is inert, so focus
 * moves inside and stays there; Escape and a click on the dimmed backdrop close it, and focus goes
 * back to what had it before. Render it while open; unmounting closes it.
 */
export function Modal({
  title,
  onClose,
  children,
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const opener = returnFocusTo(document.activeElement);
    const element = dialog.current;
    if (element && !element.open) {
      element.showModal();
      // The browser focuses the first focusable (the close button). What users expect is the element
      // marked data-autofocus, else the form's first field (React's autoFocus acts before the dialog
      // opens, when nothing inside it can take focus yet).
      const preferred =
        element.querySelector<HTMLElement>('[data-autofocus]') ??
        element.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select');
      preferred?.focus();
    }
    return () => {
      if (element?.open) element.close();
      // Back to the button that opened it (browsers do this on close(), but not when React removes the node).
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // showModal makes the page inert, but Tab past the last control leaves for the browser's own UI:
  // wrap around instead, so keyboard focus stays in the dialog.
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab') return;
    const focusable = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => !el.hasAttribute('disabled') && el.getClientRects().length > 0,
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  // The dialog element's own box is only hit through its ::backdrop: the content fills it.
  const onBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target === e.currentTarget) onClose();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault(); // Escape: the parent decides (it unmounts us)
        onClose();
      }}
      onClick={onBackdrop}
      onKeyDown={onKeyDown}
      className={cn(
        'w-full max-w-md border border-border bg-surface p-0 text-text shadow-2xl',
        // Preflight zeroes margins: m-auto centres it again; phones get a bottom sheet.
        'm-auto rounded-t-2xl max-sm:mb-0 max-sm:max-w-none sm:rounded-2xl',
        'max-h-[90vh] backdrop:bg-black/60 backdrop:backdrop-blur-sm',
        className,
      )}
    >
      <div className="max-h-[90vh] overflow-y-auto p-5 sm:p-6">
        <div className="mb-4 flex items-center justify-between gap-3">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <CloseButton label="Close" onClick={onClose} />
        </div>
        {children}
      </div>
    </dialog>
  );
}

/**
 * Where focus goes back when the dialog closes: what had focus when it opened, except a menu item
 * (a dialog opened from a menu): that item is gone with its menu, so focus returns to the button that
 * opened the menu (the menu names it in aria-labelledby, as Radix menus do).
 */
function returnFocusTo(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement)) return null;
  const menu = active.closest('[role="menu"]');
  const triggerId = menu?.getAttribute('aria-labelledby');
  const trigger = triggerId ? document.getElementById(triggerId) : null;
  return trigger ?? active;
}

const FOCUSABLE =
  'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

export const inputClass =
  'h-10 w-full rounded-lg border border-border bg-bg/60 px-3 text-sm text-text placeholder:text-muted/70 focus:border-brand focus:outline-none';
