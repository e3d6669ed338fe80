import {
  ACCESS_CODE_MAX_FAILURES,
  ACCESS_CODE_WINDOW_MS,
  AccessCodeBody,
  DiscordSignInBody,
  OAuthUrlResponse,
  OkResponse,
  PublicConfig,
  SignInResponse,
  ValidateResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientAddressKey } from '../../platform/client-address.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import { revokeSession } from '../../platform/sessions.ts';
import { roleSyncEffects } from '../roles/index.ts';
import { presentUser } from '../users/index.ts';
import type { AuthFeatureConfig } from './feature-config.ts';
import {
  completeDiscordSignIn,
  publicConfig,
  signInWithAccessCodeLimited,
  startDiscordSignIn,
} from './service.ts';

export function authRoutes(deps: FeatureContext<AuthFeatureConfig>): FastifyPluginAsyncZod {
  const { db, config } = deps;

  return async (app) => {
    const accessCodeFailures = app.createFailureLimiter(
      'access-code',
      ACCESS_CODE_MAX_FAILURES,
      ACCESS_CODE_WINDOW_MS,
    );

    app.get(
      '/api/config',
      { config: { access: 'public' }, schema: { response: { 200: PublicConfig } } },
      async () => publicConfig(db, config),
    );

    app.get(
      '/api/auth/discord/url',
      { config: { access: 'public' }, schema: { response: { 200: OAuthUrlResponse } } },
      async () => startDiscordSignIn(db, config, deps.clock),
    );

    app.post(
      '/api/auth/discord',
      {
        config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: { body: DiscordSignInBody, response: { 200: SignInResponse } },
      },
      async (req) =>
        completeDiscordSignIn(
          db,
          config,
          req.body.code,
          req.body.state,
          deps.clock,
          roleSyncEffects(app.realtime, deps.clock),
        ),
    );

    app.post(
      '/api/auth/access-code',
      { config: { access: 'public' }, schema: { body: AccessCodeBody, response: { 200: SignInResponse } } },
      async (req) =>
        signInWithAccessCodeLimited(
          db,
          accessCodeFailures,
          clientAddressKey(req.ip),
          deps.accessCode,
          req.body.code,
          deps.clock,
        ),
    );

    app.get(
      '/api/auth/validate',
      { config: { access: 'login' }, schema: { response: { 200: ValidateResponse } } },
      async (req) => {
        const auth = req.auth!;
        return { success: true as const, user: presentUser(auth.user, auth.level) };
      },
    );

    app.post(
      '/api/auth/logout',
      { config: { access: 'login' }, schema: { response: { 200: OkResponse } } },
      async (req) => {
        await revokeSession(db, req.auth!.tokenHash);
        // Sockets opened with this session close now rather than at the next periodic re-check.
        await app.realtime.recheckSessions();
        return { success: true as const, message: 'Logged out' };
      },
    );
  };
}
