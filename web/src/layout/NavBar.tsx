import { hasLevel, memberFace } from '@guildhall/common';
import { Bell, LayoutDashboard, LogIn, LogOut, UserPlus } from 'lucide-react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { loginPathFor } from '../auth/next-path.ts';
import { useAuth } from '../auth/useAuth.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { buttonClass } from '../ui/Button.tsx';
import { cn } from '../ui/cn.ts';
import { Logo } from './Logo.tsx';
import { usePendingCount } from './usePendingCount.ts';
import { useUnreadNotices } from './useUnreadNotices.ts';

const navLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-1.5 text-sm font-medium transition-colors',
    isActive ? 'bg-surface-2 text-text' : 'text-muted hover:text-text',
  );

/** Logo → /dashboard (user+), / (viewer) or /login (signed out); Home always; Dashboard for user+. */
export function NavBar() {
  const { status, user, logout } = useAuth();
  const navigate = useNavigate();
  const isMember = user ? hasLevel(user.accessLevel, 'user') : false;
  // Their server nickname and avatar where they have one (issue 43), else their Discord account's.
  const face = user ? memberFace(user) : null;
  const pendingCount = usePendingCount();
  const unreadNotices = useUnreadNotices();
  const logoTarget = !user ? '/login' : isMember ? '/dashboard' : '/';
  const location = useLocation();
  // Signing in from any page (a users-only share link, issue 45) comes back to it; on /login, keep its ?next=.
  const here = `${location.pathname}${location.search}`;
  const loginTarget = location.pathname === '/login' ? here : loginPathFor(here);

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-bg/80 backdrop-blur">
      <nav className="mx-auto flex h-14 max-w-7xl items-center gap-1 px-3 sm:gap-2 sm:px-6" aria-label="Main">
        <Link to={logoTarget} className="mr-2 flex items-center gap-2" aria-label="Guildhall">
          <Logo />
          <span className="hidden font-semibold tracking-tight sm:inline">Guildhall</span>
        </Link>
        <NavLink to="/" end className={navLink}>
          Home
        </NavLink>
        {isMember && (
          <NavLink to="/dashboard" className={navLink}>
            <span className="inline-flex items-center gap-1.5">
              <LayoutDashboard className="hidden size-4 sm:inline" />
              Dashboard
            </span>
          </NavLink>
        )}
        <div className="ml-auto flex items-center gap-2">
          {status === 'signed-in' && user ? (
            <>
              {pendingCount > 0 && (
                <Link
                  to="/admin"
                  data-testid="nav-pending"
                  className="inline-flex items-center gap-1.5 rounded-lg border border-warning/40 bg-warning/10 px-2 py-1 text-xs font-semibold text-warning-text hover:bg-warning/20"
                >
                  <UserPlus className="size-3.5" aria-hidden />
                  {pendingCount}
                  <span className="sr-only sm:not-sr-only">pending</span>
                  <span className="sr-only"> approval{pendingCount === 1 ? '' : 's'}</span>
                </Link>
              )}
              <Link
                to="/notices"
                data-testid="nav-notices"
                aria-label={unreadNotices > 0 ? `Notices, ${unreadNotices} unread` : 'Notices'}
                className="relative inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text"
              >
                <Bell className="size-4" aria-hidden />
                {unreadNotices > 0 && (
                  <span
                    data-testid="nav-notices-count"
                    className="absolute -right-1 -top-1 min-w-4 rounded-full bg-brand px-1 text-center text-[10px] font-bold leading-4 text-white"
                  >
                    {unreadNotices > 99 ? '99+' : unreadNotices}
                  </span>
                )}
              </Link>
              <Link
                to="/settings"
                className="flex min-w-0 max-w-xs items-center gap-2 text-sm text-muted hover:text-text"
              >
                <Avatar
                  src={user.provider === 'discord' ? face?.avatarUrl : undefined}
                  name={face?.name ?? ''}
                  className="size-7 text-xs"
                />
                <span className="sr-only truncate sm:not-sr-only" data-testid="nav-username">
                  {face?.name}
                </span>
              </Link>
              <button
                type="button"
                className={buttonClass('secondary', 'sm')}
                onClick={async () => {
                  await logout();
                  navigate('/login');
                }}
              >
                <LogOut className="size-4" />
                <span className="sr-only sm:not-sr-only">Logout</span>
              </button>
            </>
          ) : status === 'signed-out' ? (
            <Link to={loginTarget} className={buttonClass('primary', 'sm')}>
              <LogIn className="size-4" />
              Login
            </Link>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
