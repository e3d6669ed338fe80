/**
 * Where to go after signing in. The spec sends everyone to /dashboard; a game invite link opened while
 * signed out (`/minigames/...?join=<id>`) is remembered for this tab and opened instead, so the link
 * "opens the game after sign-in" (issue 29). Only minigame paths are kept: nothing else can redirect.
 */
const KEY = 'guildhall:after-sign-in';

export function rememberInvite(pathname: string, search: string): void {
  if (!pathname.startsWith('/minigames/') || !search.includes('join=')) return;
  try {
    sessionStorage.setItem(KEY, pathname + search);
  } catch {
    // storage unavailable (private mode quotas): the link simply leads to the dashboard
  }
}

export function takeAfterSignIn(): string {
  try {
    const held = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (held && /^\/minigames\/[a-z-]+\?join=[\w-]+$/.test(held)) return held;
  } catch {
    // see above
  }
  return '/dashboard';
}
