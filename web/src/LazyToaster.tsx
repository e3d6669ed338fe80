import { lazy, Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
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
  const host = useToastHost();
  return createPortal(
    <Suspense fallback={null}>
      <Toaster
        position="top-right"
        theme={theme}
        richColors
        closeButton
        offset={{ top: 72 }}
        mobileOffset={{ top: 64 }}
      />
    </Suspense>,
    host,
  );
}

/**
 * Where the toasts live: in <body>, or inside the topmost open modal <dialog> while one is open. A modal
 * dialog sits in the browser's top layer above the whole page and makes everything outside it inert,
 * so toasts raised from a dialog ("Share link created") were drawn under its backdrop and could not be
 * closed. Inside the dialog they are above it and usable. React renders them through a portal into this
 * node, which only moves; when a dialog goes away the node comes back to <body>.
 */
function useToastHost(): HTMLElement {
  const [host] = useState(() => document.createElement('div'));
  useEffect(() => {
    const place = () => {
      const modal = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal')).at(-1);
      const parent = modal ?? document.body;
      if (host.parentElement !== parent) parent.append(host);
    };
    place();
    // Attribute records: a dialog opened or closed. Otherwise only when the node went away with a dialog.
    const observer = new MutationObserver((records) => {
      if (!host.isConnected || records.some((r) => r.type === 'attributes')) place();
    });
    observer.observe(document.body, {
      attributes: true,
      attributeFilter: ['open'],
      childList: true,
      subtree: true,
    });
    return () => {
      observer.disconnect();
      host.remove();
    };
  }, [host]);
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
