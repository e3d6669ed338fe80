import type { DiscordProfile } from '../users/index.ts';
import type { AuthConfig } from './config.ts';

export class DiscordError extends Error {}

/** Exchanges an authorization code (with the PKCE verifier) for an access token on the server side. */
export async function exchangeCode(config: AuthConfig, code: string, codeVerifier: string): Promise<string> {
  const d = config.discord;
  const body = new URLSearchParams({
    client_id: d.clientId ?? '',
    client_secret: d.clientSecret ?? '',
    grant_type: 'authorization_code',
    code,
    redirect_uri: d.redirectUri ?? '',
    code_verifier: codeVerifier,
  });
  const res = await fetch(`${d.apiUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
    signal: AbortSignal.timeout(d.timeoutMs),
  }).catch((e: unknown) => {
    throw new DiscordError(`token endpoint unreachable: ${String(e)}`);
  });
  const json = (await res.json().catch(() => null)) as { access_token?: unknown } | null;
  if (!res.ok || typeof json?.access_token !== 'string') {
    throw new DiscordError(`token exchange failed with HTTP ${res.status}`);
  }
  return json.access_token;
}

/** Reads the signed-in Discord user (`/users/@me`). */
export async function fetchDiscordProfile(config: AuthConfig, accessToken: string): Promise<DiscordProfile> {
  const res = await fetch(`${config.discord.apiUrl}/users/@me`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(config.discord.timeoutMs),
  }).catch((e: unknown) => {
    throw new DiscordError(`users/@me unreachable: ${String(e)}`);
  });
  if (!res.ok) throw new DiscordError(`users/@me failed with HTTP ${res.status}`);
  const u = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!u || typeof u.id !== 'string' || !/^\d{15,20}$/.test(u.id) || typeof u.username !== 'string') {
    throw new DiscordError('users/@me returned an unexpected body');
  }
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    id: u.id,
    username: u.username.slice(0, 64),
    discriminator: str(u.discriminator),
    avatar: str(u.avatar),
    email: str(u.email),
    global_name: str(u.global_name),
  };
}
