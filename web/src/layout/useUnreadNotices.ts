import { NOTICES_POLL_MS } from '@guildhall/common';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { apiFetch } from '../api/client.ts';
import { useAuth } from '../auth/useAuth.ts';

/** Fired by the notices page after marking read, so the navbar's count follows at once. */
export const NOTICES_CHANGED_EVENT = 'guildhall:notices-changed';

/**
 * The member's unread notices (issue 45) for the navbar's bell: read on every navigation and every
 * NOTICES_POLL_MS while the page is open.
 */
export function useUnreadNotices(): number {
  const { status } = useAuth();
  const { pathname } = useLocation();
  const [count, setCount] = useState(0);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    window.addEventListener(NOTICES_CHANGED_EVENT, bump);
    const timer = setInterval(bump, NOTICES_POLL_MS);
    return () => {
      window.removeEventListener(NOTICES_CHANGED_EVENT, bump);
      clearInterval(timer);
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname and tick are the triggers to re-read
  useEffect(() => {
    if (status !== 'signed-in') {
      setCount(0);
      return;
    }
    let live = true;
    // Typed, not zod-parsed: the navbar is on every page, /login included, which must not ship zod.
    apiFetch<{ unread: number }>('/api/notices/unread')
      .then((res) => {
        if (live) setCount(res.unread);
      })
      .catch(() => undefined); // the badge keeps its value; the notices page reports failures
    return () => {
      live = false;
    };
  }, [status, pathname, tick]);
  return count;
}
