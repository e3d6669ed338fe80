import { Outlet } from 'react-router';
import { useFollowSystemTheme } from '../ui/theme.ts';
import { NavBar } from './NavBar.tsx';
import { SetupBanner } from './SetupBanner.tsx';

export function RootLayout() {
  useFollowSystemTheme();
  return (
    <div className="flex min-h-screen flex-col">
      <NavBar />
      <SetupBanner />
      <div className="flex-1">
        <Outlet />
      </div>
      <footer className="border-t border-border/60 py-5 text-center text-xs text-muted">
        Guildhall · members-only community tools
      </footer>
    </div>
  );
}
