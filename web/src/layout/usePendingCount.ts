import { hasLevel, type ServerUser } from '@guildhall/common';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { apiFetch } from '../api/client.ts';
import { useAuth } from '../auth/useAuth.ts';

/** Fired by the admin panel after an approval or removal, so the navbar count follows at once. */
export const PENDING_CHANGED_EVENT = 'guildhall:pending-changed';

/** Pending accounts waiting for approval, for an admin's navbar; re-read on every navigation. */
export function usePendingCount(): number {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const isAdmin = user ? hasLevel(user.accessLevel, 'admin') : false;
  const [count, setCount] = useState(0);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    window.addEventListener(PENDING_CHANGED_EVENT, bump);
    return () => window.removeEventListener(PENDING_CHANGED_EVENT, bump);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname and tick are the triggers to re-read
  useEffect(() => {
    if (!isAdmin) {
      setCount(0);
      return;
    }
    let live = true;
    // Typed, not zod-parsed: the navbar is on every page, /login included, which must not ship zod.
    apiFetch<{ data: Pick<ServerUser, 'is_approved'>[] }>('/api/users')
      .then((res) => {
        if (live) setCount(res.data.filter((u) => !u.is_approved).length);
      })
      .catch(() => undefined); // the admin panel reports an unreachable API; the badge just keeps its value
    return () => {
      live = false;
    };
  }, [isAdmin, pathname, tick]);
  return count;
}
