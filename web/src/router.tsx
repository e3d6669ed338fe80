import { TEXTS } from '@guildhall/common';
import type { ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Route, Routes, useLocation } from 'react-router';
import { RequireAuth } from './auth/guards.tsx';
import { LoginPage } from './features/login/LoginPage.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { lazyPage } from './lazy-page.tsx';

// Every page but /login loads lazily so /login ships only what it needs (< 100 KB gzipped).
const HomePage = lazyPage(() => import('./features/home/HomePage.tsx'), 'HomePage');
const CallbackPage = lazyPage(() => import('./features/callback/CallbackPage.tsx'), 'CallbackPage');
const NotFoundPage = lazyPage(() => import('./features/errors/NotFoundPage.tsx'), 'NotFoundPage');
const DashboardPage = lazyPage(() => import('./features/dashboard/DashboardPage.tsx'), 'DashboardPage');
const SettingsPage = lazyPage(() => import('./features/settings/SettingsPage.tsx'), 'SettingsPage');
const AdminPage = lazyPage(() => import('./features/admin/AdminPage.tsx'), 'AdminPage');
const ApiReferencePage = lazyPage(() => import('./features/admin/ApiReferencePage.tsx'), 'ApiReferencePage');
const MinigamesMenu = lazyPage(() => import('./features/games/MinigamesMenu.tsx'), 'MinigamesMenu');
const PictionaryPage = lazyPage(
  () => import('./features/games/pictionary/PictionaryPage.tsx'),
  'PictionaryPage',
);
const TicTacToePage = lazyPage(() => import('./features/games/tictactoe/TicTacToePage.tsx'), 'TicTacToePage');
const FilesPage = lazyPage(() => import('./features/files/FilesPage.tsx'), 'FilesPage');
const SharedLinkPage = lazyPage(() => import('./features/files/SharedLinkPage.tsx'), 'SharedLinkPage');
const GuestUploadPage = lazyPage(() => import('./features/requests/GuestUploadPage.tsx'), 'GuestUploadPage');
const NoticesPage = lazyPage(() => import('./features/notices/NoticesPage.tsx'), 'NoticesPage');
const MusicPage = lazyPage(() => import('./features/music/MusicPage.tsx'), 'MusicPage');
const OsintPage = lazyPage(() => import('./features/osint/OsintPage.tsx'), 'OsintPage');

/** Signed-in pages: signed-out visitors go to /login, lower levels see the access-denied page. */
const guarded = (page: ReactNode, level?: 'user' | 'admin', deniedMessage?: string) => (
  <RequireAuth level={level} deniedMessage={deniedMessage}>
    {page}
  </RequireAuth>
);

/**
 * The route table of portal-core §2 and portal-tools §2. Tool routes: one lazy module each.
 * Declarative routes (not a data router): the app uses no loaders or actions, and the data router
 * would add about 16 KB gzipped to /login (issue 17). Errors thrown while rendering a route (a page
 * that throws, a failed lazy load) show the spec's Unexpected Application Error inside the layout
 * (RootLayout's boundary); this outer one only catches a layout that fails itself. Both reset when the
 * address changes.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary FallbackComponent={RouteError} resetKeys={[pathname]}>
      <Routes>
        <Route element={<RootLayout />}>
          <Route path="/" element={<HomePage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/auth/discord/callback" element={<CallbackPage />} />
          <Route path="/shared/:token" element={<SharedLinkPage />} />
          {/* An upload link's guest page (issue 45): signed out, like a share's. */}
          <Route path="/request/:token" element={<GuestUploadPage />} />
          <Route path="/notices" element={guarded(<NoticesPage />)} />
          <Route path="/dashboard" element={guarded(<DashboardPage />, 'user')} />
          <Route path="/admin" element={guarded(<AdminPage />, 'admin', TEXTS.adminNoPermission)} />
          <Route
            path="/admin/api"
            element={guarded(<ApiReferencePage />, 'admin', TEXTS.adminNoPermission)}
          />
          <Route path="/settings" element={guarded(<SettingsPage />)} />
          <Route path="/infosec" element={guarded(<OsintPage />)} />
          <Route path="/filesystem" element={guarded(<FilesPage />)} />
          <Route path="/music" element={guarded(<MusicPage />)} />
          <Route path="/minigames" element={guarded(<MinigamesMenu />)} />
          <Route path="/minigames/tic-tac-toe" element={guarded(<TicTacToePage />)} />
          <Route path="/minigames/pictionary" element={guarded(<PictionaryPage />)} />
          {/* An unknown address is a page inside the layout; RouteError stays for real failures. */}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </ErrorBoundary>
  );
}
