import { type OAuthUrlResponse, STORAGE_KEYS, TEXTS } from '@guildhall/common';
import { ApiError, apiFetch } from '../../api/client.ts';
import { forgetNextForDiscord, rememberNextForDiscord } from '../../auth/next-path.ts';

/**
 * Asks the server for the authorize URL, stores the state, and sends the browser to Discord; `next`
 * (a checked same-origin path) is where the callback page goes once signed in.
 */
export async function startDiscordLogin(next: string | null): Promise<void> {
  let res: OAuthUrlResponse;
  try {
    res = await apiFetch<OAuthUrlResponse>('/api/auth/discord/url', { token: null });
  } catch (e) {
    if (e instanceof ApiError && e.code === 'OAUTH_NOT_CONFIGURED') throw new Error(TEXTS.oauthNotConfigured);
    throw new Error(TEXTS.oauthUrlFailed);
  }
  localStorage.setItem(STORAGE_KEYS.oauthState, res.state);
  if (next) rememberNextForDiscord(next);
  else forgetNextForDiscord();
  window.location.assign(res.url);
}
