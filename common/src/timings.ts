/** Business constants and limits fixed by the spec (portal-core §9, portal-tools §9). */
export const APPROVED_CACHE_MS = 5 * 60 * 1000;
export const OAUTH_DUPLICATE_CODE_GUARD_MS = 5000;
export const COPY_CONFIRMATION_MS = 2000;
export const CALLBACK_SUCCESS_REDIRECT_MS = 2000;
export const CALLBACK_ERROR_REDIRECT_MS = 3000;
export const AVATAR_SIZE = 256;
export const DASHBOARD_TWO_COLUMN_MAX_CARDS = 4;
/**
 * How often the navbar asks for the unread notices (issue 45). Here, not in notices.ts: the navbar is on
 * /login too, and a module with zod schemas brings zod with it.
 */
export const NOTICES_POLL_MS = 30_000;

/** Server-side auth limits (our choices; see docs/configuration.md). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const ACCESS_CODE_MAX_FAILURES = 10;
export const ACCESS_CODE_WINDOW_MS = 15 * 60 * 1000;

/** Storage keys the browser keeps (portal-core §3). */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  authUser: 'authUser',
  oauthState: 'discord_oauth_state',
  approvedUsers: 'approvedUsersCache',
} as const;
