/**
 * Where sign-in returns to (issue 31): the page a signed-out member was sent away from, carried as
 * `/login?next=<path>` and, across the Discord round trip, in this tab's sessionStorage. Only a path
 * of this site is ever followed; anything else (another origin, `//host`, `/\host`, a scheme, the
 * sign-in pages themselves) falls back to the dashboard, so the parameter is never an open redirect.
 */
export const NEXT_PARAM = 'next';
export const AFTER_SIGN_IN_DEFAULT = '/dashboard';
const STORAGE_KEY = 'guildhall_sign_in_next';
const MAX_LENGTH = 2048;
/** Pages that would loop back into sign-in. */
const NOT_A_DESTINATION = ['/login', '/auth/discord/callback'];

/** `raw` as a same-origin path (path, query and hash), or null when it is not one. */
export function safeNextPath(raw: unknown, origin: string = window.location.origin): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  // A path, not a scheme-relative URL: browsers read `//host` and `/\host` as another host, and drop
  // tabs and newlines anywhere (`/\t/host`), so backslashes and control characters are refused outright.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (NOT_A_DESTINATION.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in address that comes back to `path` afterwards (plain /login for the default). */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next && next !== AFTER_SIGN_IN_DEFAULT
    ? `/login?${NEXT_PARAM}=${encodeURIComponent(next)}`
    : '/login';
}

/** Kept for the Discord round trip: the callback page reads it back in this tab. */
export function rememberNextForDiscord(next: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, next);
  } catch {
    // storage refused (private mode quota): the callback falls back to the dashboard
  }
}

/** The remembered destination, checked again (storage is writable by any script on the page). */
export function recallNextForDiscord(): string | null {
  try {
    return safeNextPath(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

export function forgetNextForDiscord(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing to forget
  }
}
