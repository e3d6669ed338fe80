import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

// sonner is about 9 KB gzipped and /login never toasts: it loads with the first other page (issue 17:
// /login under 100 KB). toast() calls live in lazy pages and share this same module instance.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The app's toaster, below the 56 px navbar so a toast never covers Logout. Not loaded on /login. */
export function LazyToaster() {
  const { pathname } = useLocation();
  // Once loaded it stays mounted, so a toast raised just before returning to /login still shows.
  const [wanted, setWanted] = useState(false);
  if (!wanted && pathname !== '/login') setWanted(true);
  return wanted ? <ThemedToaster /> : null;
}

function ThemedToaster() {
  const theme = useAppTheme();
  const host = useTopLayer();
  return (
    <div
      ref={host}
      popover="manual"
      className="pointer-events-none m-0 size-full max-h-none max-w-none overflow-visible border-0 bg-transparent p-0 [&_[data-sonner-toaster]]:pointer-events-auto"
    >
      <Suspense fallback={null}>
        <Toaster
          position="top-right"
          theme={theme}
          richColors
          closeButton
          offset={{ top: 72 }}
          mobileOffset={{ top: 64 }}
        />
      </Suspense>
    </div>
  );
}

/**
 * Keeps the toasts in the browser's top layer, above any modal <dialog>: the top layer stacks in the
 * order things entered it, so each time a dialog opens the toast host leaves and enters it again (a
 * toast raised from a dialog, "Share link created", was drawn under the dialog's backdrop).
 */
function useTopLayer() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || typeof element.showPopover !== 'function') return;
    const raise = () => {
      if (element.matches(':popover-open')) element.hidePopover();
      element.showPopover();
    };
    raise();
    const observer = new MutationObserver((records) => {
      if (records.some((r) => r.target instanceof HTMLDialogElement && r.target.open)) raise();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['open'], subtree: true });
    return () => observer.disconnect();
  }, []);
  return host;
}

/** The theme <html data-theme> says (the app's choice, which may differ from the system's). */
const readTheme = (): 'light' | 'dark' =>
  document.documentElement.dataset.theme === 'light' ? 'light' : 'dark';

function useAppTheme(): 'light' | 'dark' {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(readTheme()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}
