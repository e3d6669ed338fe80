/** User-visible texts the spec fixes verbatim (portal-core §5, §8). Both sides and the tests use these. */
export const TEXTS = {
  oauthNotConfigured: 'Discord OAuth not configured. Please check your environment variables.',
  oauthUrlFailed: 'Failed to generate Discord OAuth URL',
  notApproved:
    'Access denied. Your account is not approved for this system. Please contact an administrator.',
  invalidAccessCode: 'Invalid access code',
  loginFailed: 'Login failed.',
  noStoredState: 'No stored state found. Please try logging in again.',
  invalidState: 'Invalid state parameter. Possible CSRF attack.',
  discordAuthFailed: 'Discord authentication failed',
  requestInProgress: 'Request already in progress.',
  authenticationFailedPrefix: 'Authentication failed: ',
  missingDiscordParams: 'Missing required parameters from Discord',
  unexpectedError: 'An unexpected error occurred',
  authenticationFailed: 'Authentication failed',
  networkError: 'Network error or server unavailable',
  rateLimitGeneric: 'Rate limit exceeded. Please try again later.',
  /** Sent to a realtime connection dropped because the same account opened too many others. */
  realtimeReplaced: 'Too many open connections for this account: this one was closed.',
  noUserData: 'No User Data',
  unexpectedApplicationError: 'Unexpected Application Error',
  // admin
  backendUnavailable: 'Backend unavailable. Showing cached data.',
  refreshFailed: 'Failed to refresh user list.',
  approveFailed: 'Failed to approve user.',
  fillRequired: 'Please fill in all required fields',
  duplicateUser: 'User with this ID or username already exists',
  usernameRequired: 'Username is required',
  cannotRemoveSelf: 'Cannot remove yourself from the approved users list.',
  confirmRemove: 'Are you sure you want to remove this user?',
  adminNoPermission: "You don't have permission to access the admin panel",
  // server-side auth errors (our wording where the spec is silent)
  authRequired: 'Authentication required',
  sessionInvalid: 'Session expired or revoked. Please sign in again.',
  accessChanged: 'Your access level changed.',
  insufficientLevel: (level: string) => `This requires ${level} access or higher.`,
} as const;

export function rateLimitText(seconds: number): string {
  return `Rate limit exceeded. Please try again after ${seconds} seconds`;
}

export function httpStatusText(status: number): string {
  return `HTTP ${status}`;
}
