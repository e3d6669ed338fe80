import { TEXTS } from '@guildhall/common';
import { createBrowserRouter } from 'react-router';
import { RequireAuth } from './auth/guards.tsx';
import { RouteError } from './features/errors/RouteError.tsx';
import { LoginPage } from './features/login/LoginPage.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { lazyPage } from './lazy-page.tsx';

// Every page but /login loads lazily so /login ships only what it needs (< 100 KB gzipped).
const HomePage = lazyPage(() => import('./features/home/HomePage.tsx'), 'HomePage');
const CallbackPage = lazyPage(() => import('./features/callback/CallbackPage.tsx'), 'CallbackPage');
const NotFoundPage = lazyPage(() => import('./features/errors/NotFoundPage.tsx'), 'NotFoundPage');
const DashboardPage = lazyPage(() => import('./features/dashboard/DashboardPage.tsx'), 'DashboardPage');
const SettingsPage = lazyPage(() => import('./features/settings/SettingsPage.tsx'), 'SettingsPage');
const AdminPage = lazyPage(() => import('./features/admin/AdminPage.tsx'), 'AdminPage');
const MinigamesMenu = lazyPage(() => import('./features/games/MinigamesMenu.tsx'), 'MinigamesMenu');
const PictionaryPage = lazyPage(
  () => import('./features/games/pictionary/PictionaryPage.tsx'),
  'PictionaryPage',
);
const TicTacToePage = lazyPage(() => import('./features/games/tictactoe/TicTacToePage.tsx'), 'TicTacToePage');
const FilesPage = lazyPage(() => import('./features/files/FilesPage.tsx'), 'FilesPage');
const SharedLinkPage = lazyPage(() => import('./features/files/SharedLinkPage.tsx'), 'SharedLinkPage');
const MusicPage = lazyPage(() => import('./features/music/MusicPage.tsx'), 'MusicPage');
const OsintPage = lazyPage(() => import('./features/osint/OsintPage.tsx'), 'OsintPage');

/** The route table of portal-core §2 and portal-tools §2. Tool routes: one lazy module each. */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/auth/discord/callback', element: <CallbackPage /> },
      { path: '/shared/:token', element: <SharedLinkPage /> },
      {
        path: '/dashboard',
        element: (
          <RequireAuth level="user">
            <DashboardPage />
          </RequireAuth>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAuth level="admin" deniedMessage={TEXTS.adminNoPermission}>
            <AdminPage />
          </RequireAuth>
        ),
      },
      {
        path: '/settings',
        element: (
          <RequireAuth>
            <SettingsPage />
          </RequireAuth>
        ),
      },
      {
        path: '/infosec',
        element: (
          <RequireAuth>
            <OsintPage />
          </RequireAuth>
        ),
      },
      {
        path: '/filesystem',
        element: (
          <RequireAuth>
            <FilesPage />
          </RequireAuth>
        ),
      },
      {
        path: '/music',
        element: (
          <RequireAuth>
            <MusicPage />
          </RequireAuth>
        ),
      },
      {
        path: '/minigames',
        element: (
          <RequireAuth>
            <MinigamesMenu />
          </RequireAuth>
        ),
      },
      {
        path: '/minigames/tic-tac-toe',
        element: (
          <RequireAuth>
            <TicTacToePage />
          </RequireAuth>
        ),
      },
      {
        path: '/minigames/pictionary',
        element: (
          <RequireAuth>
            <PictionaryPage />
          </RequireAuth>
        ),
      },
      // An unknown address is a page inside the layout; RouteError stays for real routing failures.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
