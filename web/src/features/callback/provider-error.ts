import { TEXTS } from '@guildhall/common';

/**
 * What Discord's `error` on the callback means to a member (the OAuth 2.0 error codes of RFC 6749
 * §4.1.2.1), kept in the spec's "Authentication failed: {error}" form. A member who pressed Cancel
 * on Discord is told just that, not "access_denied".
 */
const MEANINGS: Record<string, string> = {
  access_denied: 'you cancelled the sign-in on Discord. Continue with Discord again whenever you are ready.',
  server_error: 'Discord had a problem on its side. Try again in a minute.',
  temporarily_unavailable: 'Discord is busy right now. Try again in a minute.',
  invalid_request: 'Discord refused the sign-in request. Try again; if it keeps happening, tell an admin.',
  invalid_scope: 'Discord refused the sign-in request. Try again; if it keeps happening, tell an admin.',
  unauthorized_client: 'this portal is not allowed to use Discord sign-in. Tell an admin.',
  unsupported_response_type: 'Discord refused the sign-in request. Tell an admin.',
};

/** The message for a provider error code; an unknown code is quoted, cut to a sane length. */
export function providerErrorMessage(code: string): string {
  const meaning = Object.hasOwn(MEANINGS, code) ? MEANINGS[code] : undefined;
  return `${TEXTS.authenticationFailedPrefix}${meaning ?? `Discord reported “${code.slice(0, 80)}”. Try again.`}`;
}

/** True when the member chose not to sign in (a cancel, not a fault). */
export const isCancelled = (code: string | null) => code === 'access_denied';
