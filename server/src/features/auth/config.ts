import { defineConfig, type SliceOf } from '../../platform/config/define.ts';
import { httpUrl, optionalString, positiveInt } from '../../platform/config/env.ts';
import type { SharedConfig } from '../../platform/config/shared.ts';

/**
 * Sign-in's variables: `config.auth`. ACCESS_CODE is read at start-up (main.ts settles the access code),
 * not by the running feature, so it is not in the feature's context. Discord's API base and the admins
 * made at start-up are the platform's (`shared.discord`: the Discord file store and role sync read them too).
 */
export const authConfig = defineConfig({
  title: 'Sign-in',
  vars: {
    ACCESS_CODE: {
      field: 'accessCode',
      schema: optionalString.refine((v) => v === undefined || v.length >= 8, {
        message: 'ACCESS_CODE must be at least 8 characters',
      }),
      doc: 'the shared access code (≥ 8 characters); checked on the server only',
      shownDefault: 'generated on first start, kept in `$DATA_DIR/access-code.txt`',
      example: 'choose-a-long-random-code',
    },
    DISCORD_CLIENT_ID: {
      field: 'discord.clientId',
      schema: optionalString,
      doc: 'OAuth2 client id of your Discord application (see "Registering the Discord application")',
    },
    DISCORD_CLIENT_SECRET: {
      field: 'discord.clientSecret',
      schema: optionalString,
      doc: 'its client secret (stays on the server)',
    },
    DISCORD_REDIRECT_URI: {
      field: 'discord.redirectUri',
      schema: httpUrl('DISCORD_REDIRECT_URI').optional(),
      doc: '`https://<your host>/auth/discord/callback`, also registered in the Discord application',
      example: 'https://guildhall.example.org/auth/discord/callback',
    },
    DISCORD_AUTHORIZE_URL: {
      field: 'discord.authorizeUrl',
      schema: httpUrl('DISCORD_AUTHORIZE_URL').default('https://discord.com/oauth2/authorize'),
      doc: "Discord's authorize page",
    },
    DISCORD_SIGNIN_TIMEOUT_MS: {
      field: 'discord.timeoutMs',
      schema: positiveInt('DISCORD_SIGNIN_TIMEOUT_MS').default(10_000),
      doc: 'how long sign-in waits for each answer of Discord (the token exchange, then `/users/@me`) before saying "Discord authentication failed"; raise it behind a slow network',
    },
  },
  // Discord's API base is the platform's (the Discord file store and role sync call it too).
  build: (_e, shared: SharedConfig) => ({ discord: { apiUrl: shared.discord.apiUrl } }),
});

/**
 * Discord sign-in (OAuth2): what the auth feature's FeatureContext `config` holds (the access code is
 * settled by main.ts at start-up).
 */
export type AuthConfig = Omit<SliceOf<typeof authConfig>, 'accessCode'>;

export function isOAuthConfigured(config: AuthConfig): boolean {
  const d = config.discord;
  return Boolean(d.clientId && d.clientSecret && d.redirectUri);
}
