import { commaList, type EnvOf, httpUrl, optionalString } from '../../platform/config/env.ts';

/** Sign-in's variables (README, "Configuration"); config.ts adds them to the one environment schema. */
export const authEnv = {
  ACCESS_CODE: optionalString.refine((v) => v === undefined || v.length >= 8, {
    message: 'ACCESS_CODE must be at least 8 characters',
  }),
  ADMIN_DISCORD_IDS: commaList().refine((ids) => ids.every((id) => /^\d{17,20}$/.test(id)), {
    message: 'ADMIN_DISCORD_IDS must be a comma-separated list of Discord ids (17–20 digits)',
  }),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_REDIRECT_URI: httpUrl('DISCORD_REDIRECT_URI').optional(),
  DISCORD_API_URL: httpUrl('DISCORD_API_URL').default('https://discord.com/api'),
  DISCORD_AUTHORIZE_URL: httpUrl('DISCORD_AUTHORIZE_URL').default('https://discord.com/oauth2/authorize'),
};

/** Discord sign-in (OAuth2): what the auth feature's FeatureContext `config` holds. */
export type AuthConfig = {
  discord: {
    clientId?: string;
    clientSecret?: string;
    redirectUri?: string;
    apiUrl: string;
    authorizeUrl: string;
  };
};

/**
 * ACCESS_CODE and ADMIN_DISCORD_IDS are read at start-up (main.ts settles the access code, the users
 * feature's bootstrap makes the admins), not by the running feature, so they are not in its slice.
 */
export function authConfig(e: EnvOf<typeof authEnv>): AuthConfig & {
  accessCode?: string;
  adminDiscordIds: string[];
} {
  return {
    accessCode: e.ACCESS_CODE,
    adminDiscordIds: e.ADMIN_DISCORD_IDS,
    discord: {
      clientId: e.DISCORD_CLIENT_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      redirectUri: e.DISCORD_REDIRECT_URI,
      apiUrl: e.DISCORD_API_URL,
      authorizeUrl: e.DISCORD_AUTHORIZE_URL,
    },
  };
}

export function isOAuthConfigured(config: AuthConfig): boolean {
  const d = config.discord;
  return Boolean(d.clientId && d.clientSecret && d.redirectUri);
}
