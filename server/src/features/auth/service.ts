import {
  DEMO_USER_ID,
  OAUTH_STATE_TTL_MS,
  type OAuthUrlResponse,
  type PublicConfig,
  rateLimitText,
  type SignInResponse,
  TEXTS,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { randomToken, safeEqual, sha256Base64Url } from '../../platform/crypto.ts';
import { fail, HttpError } from '../../platform/errors.ts';
import type { Clock } from '../../platform/feature.ts';
import type { FailureLimiter } from '../../platform/rate-limit/failure-limiter.ts';
import { createSession } from '../../platform/sessions.ts';
import { isoIn, isoOn } from '../../platform/time.ts';
import { checkAtSignIn, type RoleSyncEffects } from '../roles/index.ts';
import {
  effectiveLevel,
  findUserById,
  isSetupMode,
  presentUser,
  touchLastLogin,
  upsertDiscordProfile,
} from '../users/index.ts';
import { type AuthConfig, isOAuthConfigured } from './config.ts';
import { DiscordError, exchangeCode, fetchDiscordProfile } from './discord-client.ts';
import type { AuthFeatureConfig } from './feature-config.ts';
import { consumeOAuthState, saveOAuthState } from './repo.ts';

/** What the browser needs to know: whether Discord sign-in is set up, and whether setup mode is on. */
export async function publicConfig(db: Db, config: AuthConfig): Promise<PublicConfig> {
  return { oauthConfigured: isOAuthConfigured(config), setupMode: await isSetupMode(db) };
}

/** Builds the Discord authorize URL with a one-time state (256 bits) and a PKCE S256 challenge. */
export async function startDiscordSignIn(
  db: Db,
  config: AuthConfig,
  clock: Clock,
): Promise<OAuthUrlResponse> {
  if (!isOAuthConfigured(config)) throw fail('OAUTH_NOT_CONFIGURED', TEXTS.oauthNotConfigured);
  const state = randomToken(32);
  const verifier = randomToken(48);
  await saveOAuthState(db, state, verifier, isoIn(clock, OAUTH_STATE_TTL_MS), isoOn(clock));
  const params = new URLSearchParams({
    client_id: config.discord.clientId ?? '',
    redirect_uri: config.discord.redirectUri ?? '',
    response_type: 'code',
    scope: 'identify email',
    state,
    code_challenge: sha256Base64Url(verifier),
    code_challenge_method: 'S256',
    prompt: 'none',
  });
  return { url: `${config.discord.authorizeUrl}?${params}`, state };
}

/**
 * Completes the Discord sign-in; Discord's own tokens stay on the server. With role sync on, the
 * community server decides first: not a member is refused, a mapped role approves at its level.
 */
export async function completeDiscordSignIn(
  db: Db,
  config: AuthFeatureConfig,
  code: string,
  state: string,
  clock: Clock,
  effects?: RoleSyncEffects,
): Promise<SignInResponse> {
  if (!isOAuthConfigured(config)) throw fail('OAUTH_NOT_CONFIGURED', TEXTS.oauthNotConfigured);
  const verifier = await consumeOAuthState(db, state, isoOn(clock));
  if (!verifier) {
    throw fail('INVALID_STATE', 'Invalid or expired sign-in state. Please try logging in again.');
  }
  let profile: Awaited<ReturnType<typeof fetchDiscordProfile>>;
  try {
    const accessToken = await exchangeCode(config, code, verifier);
    profile = await fetchDiscordProfile(config, accessToken);
  } catch (e) {
    if (e instanceof DiscordError) throw fail('DISCORD_AUTH_FAILED', TEXTS.discordAuthFailed);
    throw e;
  }
  let row = await upsertDiscordProfile(db, profile, isoOn(clock));
  if (config.roles && effects) {
    const verdict = await checkAtSignIn(db, config.roles, row, effects);
    if ('refusal' in verdict) throw fail(verdict.refusal.code, verdict.refusal.message);
    row = verdict.user;
  }
  if (row.is_approved !== 1) throw fail('NOT_APPROVED', TEXTS.notApproved);
  return signIn(db, row.discord_id, clock);
}

/**
 * The access-code sign-in with its failure limit (portal-core: 10 failures per 15 minutes per address).
 * An attempt is counted from the start so parallel guesses cannot all pass the check; only a wrong code
 * keeps counting.
 */
export async function signInWithAccessCodeLimited(
  db: Db,
  failures: FailureLimiter,
  clientKey: string,
  expected: string,
  code: string,
  clock: Clock,
): Promise<SignInResponse> {
  const attempt = await failures.begin(clientKey);
  if (!attempt.isAllowed) {
    const seconds = attempt.retryAfterSeconds;
    throw fail('RATE_LIMITED', rateLimitText(seconds), { 'retry-after': String(seconds) });
  }
  let isFailure = false;
  try {
    return await signInWithAccessCode(db, expected, code, clock);
  } catch (e) {
    isFailure = e instanceof HttpError && e.code === 'INVALID_ACCESS_CODE';
    throw e;
  } finally {
    if (!isFailure) await attempt.forgive();
  }
}

/** Signs in as the demo identity when the code matches (constant-time). */
export async function signInWithAccessCode(
  db: Db,
  expected: string,
  code: string,
  clock: Clock,
): Promise<SignInResponse> {
  if (!safeEqual(code, expected)) throw fail('INVALID_ACCESS_CODE', TEXTS.invalidAccessCode);
  const demo = await findUserById(db, DEMO_USER_ID);
  if (demo?.is_approved !== 1) throw fail('NOT_APPROVED', TEXTS.notApproved);
  return signIn(db, DEMO_USER_ID, clock);
}

async function signIn(db: Db, userId: string, clock: Clock): Promise<SignInResponse> {
  await touchLastLogin(db, userId, isoOn(clock));
  const token = await createSession(db, userId);
  const row = await findUserById(db, userId);
  if (!row) throw new Error(`user ${userId} vanished during sign-in`);
  return {
    success: true,
    token,
    message: 'Login successful',
    user: presentUser(row, await effectiveLevel(db, row)),
  };
}
