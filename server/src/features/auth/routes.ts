import {
  ACCESS_CODE_MAX_FAILURES,
  ACCESS_CODE_WINDOW_MS,
  AccessCodeBody,
  DiscordSignInBody,
  rateLimitText,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.ts';
import { isOAuthConfigured } from '../../config.ts';
import { isSetupMode } from '../../platform/effective-level.ts';
import { HttpError, httpError } from '../../platform/errors.ts';
import { FailureLimiter } from '../../platform/failure-limiter.ts';
import { revokeSession } from '../../platform/sessions.ts';
import { presentUser } from '../users/present.ts';
import { completeDiscordSignIn, signInWithAccessCode, startDiscordSignIn } from './service.ts';

export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, config } = deps;
  const accessCodeFailures = new FailureLimiter(ACCESS_CODE_MAX_FAILURES, ACCESS_CODE_WINDOW_MS);

  return async (app) => {
    app.get('/api/config', { config: { access: 'public' } }, async () => ({
      oauthConfigured: isOAuthConfigured(config),
      setupMode: await isSetupMode(db),
    }));

    app.get('/api/auth/discord/url', { config: { access: 'public' } }, async () =>
      startDiscordSignIn(db, config),
    );

    app.post(
      '/api/auth/discord',
      {
        config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: { body: DiscordSignInBody },
      },
      async (req) => completeDiscordSignIn(db, config, req.body.code, req.body.state),
    );

    app.post(
      '/api/auth/access-code',
      { config: { access: 'public' }, schema: { body: AccessCodeBody } },
      async (req, reply) => {
        const retryAfter = accessCodeFailures.retryAfterSeconds(req.ip);
        if (retryAfter > 0) {
          reply.header('retry-after', String(retryAfter));
          throw httpError(429, rateLimitText(retryAfter), 'RATE_LIMITED');
        }
        try {
          return await signInWithAccessCode(db, deps.accessCode, req.body.code);
        } catch (e) {
          if (e instanceof HttpError && e.code === 'INVALID_ACCESS_CODE')
            accessCodeFailures.recordFailure(req.ip);
          throw e;
        }
      },
    );

    app.get('/api/auth/validate', { config: { access: 'login' } }, async (req) => {
      const auth = req.auth!;
      return { success: true, user: presentUser(auth.user, auth.level) };
    });

    app.post('/api/auth/logout', { config: { access: 'login' } }, async (req) => {
      await revokeSession(db, req.auth!.tokenHash);
      // Sockets opened with this session close now rather than at the next periodic re-check.
      await app.realtime.recheckSessions();
      return { success: true, message: 'Logged out' };
    });
  };
}
