import { type AccessLevel, hasLevel } from '@guildhall/common';
import { isValidElement, type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '../ui/Spinner.tsx';
import { AccessDenied } from './AccessDenied.tsx';
import { loginPathFor } from './next-path.ts';
import { useAuth } from './useAuth.ts';

/**
 * Protects a route: signed-out visitors go to /login (with `?next=` so sign-in brings them back here);
 * a signed-in user below `level` sees the access-denied page (portal-core §2).
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
  // While the session is checked, the page's files already load (a lazy page's `preload`).
  useEffect(() => {
    if (status !== 'loading' || !isValidElement(children)) return;
    const page = children.type as { preload?: () => Promise<unknown> };
    void page.preload?.().catch(() => undefined);
  }, [status, children]);
  if (status === 'loading') return <PageSpinner />;
  if (!user) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  if (level && !hasLevel(user.accessLevel, level)) {
    return <AccessDenied required={level} current={user.accessLevel} message={deniedMessage} />;
  }
  return <>{children}</>;
}
