import { type AccessLevel, hasLevel } from '@guildhall/common';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '../ui/Spinner.tsx';
import { AccessDenied } from './AccessDenied.tsx';
import { rememberInvite } from './after-sign-in.ts';
import { useAuth } from './useAuth.ts';

/**
 * Protects a route: signed-out visitors go to /login; a signed-in user below `level` sees the
 * access-denied page (portal-core §2).
 */
export function RequireAuth({
  level,
  deniedMessage,
  children,
}: {
  level?: AccessLevel;
  deniedMessage?: string;
  children: ReactNode;
}) {
  const { status, user } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner />;
  if (!user) {
    rememberInvite(location.pathname, location.search);
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  if (level && !hasLevel(user.accessLevel, level)) {
    return <AccessDenied required={level} current={user.accessLevel} message={deniedMessage} />;
  }
  return <>{children}</>;
}
