import { Keyboard } from 'lucide-react';
import { useEffect } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Outlet, useLocation } from 'react-router';
import { useFollowSystemTheme } from '../ui/theme.ts';
import { NavBar } from './NavBar.tsx';
import { pageTitle } from './page-title.ts';
import { RouteError } from './RouteError.tsx';
import { SetupBanner } from './SetupBanner.tsx';
import { ShortcutsDialog, useShortcutHelp } from './ShortcutsDialog.tsx';

/**
 * Every screen: skip link, navigation bar, the page, footer. A page that fails to render (a chunk
 * missing after a deploy, a bug) shows the error page here, inside the layout, so the navbar stays.
 */
export function RootLayout() {
  useFollowSystemTheme();
  const { pathname } = useLocation();
  const [isHelpOpen, setHelpOpen] = useShortcutHelp();
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      {/* The target is focusable (tabIndex -1): following the link moves focus there, not only the view. */}
      <a
        href="#main-content"
        className="sr-only rounded-lg bg-brand text-sm font-semibold text-white shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <NavBar />
      <SetupBanner />
      <div id="main-content" tabIndex={-1} className="flex-1">
        <ErrorBoundary FallbackComponent={RouteError} resetKeys={[pathname]}>
          <Outlet />
        </ErrorBoundary>
      </div>
      <footer className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-t border-border/60 py-5 text-center text-xs text-muted">
        <span>Guildhall · members-only community tools</span>
        <button
          type="button"
          className="inline-flex cursor-pointer items-center gap-1.5 rounded-md px-1.5 py-0.5 hover:text-text"
          onClick={() => setHelpOpen(true)}
          aria-keyshortcuts="Shift+?"
        >
          <Keyboard className="size-3.5" aria-hidden />
          Keyboard shortcuts
          <kbd className="rounded border border-border px-1 font-mono">?</kbd>
        </button>
      </footer>
      {isHelpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
