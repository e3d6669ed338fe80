import {
  type AccessLevel,
  API_TOKEN_REQUESTS_PER_MINUTE,
  API_TOKEN_TEXTS,
  type ApiTokenScope,
  hasLevel,
  type RouteAccess,
  rateLimitText,
  TEXTS,
} from '@guildhall/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { findApiToken, isApiToken } from './api-tokens.ts';
import { fail } from './errors.ts';
import type { FailureLimiter } from './rate-limit/index.ts';
import { findSession } from './sessions.ts';

export type AuthContext = {
  user: UsersTable;
  level: AccessLevel;
  tokenHash: string;
  /** Set when the caller is a personal API token (issue 45), not a session: its id and scopes. */
  apiToken?: { id: string; scopes: ApiTokenScope[] };
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every route must declare it; startup fails otherwise. */
    access?: RouteAccess;
    /**
     * The API-token scope that lets a personal API token call this route (issue 45). Routes without one
     * refuse tokens (403), whatever the member's level: admin routes never declare one.
     */
    tokenScope?: ApiTokenScope;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every route with its declared access, in registration order (the authorization matrix reads it). */
    registeredRoutes: RegisteredRoute[];
  }
}

/** Every route registered so far with its declared access (the authorization matrix test reads this). */
export type RegisteredRoute = {
  method: string;
  url: string;
  access: RouteAccess;
  /** The API-token scope the route takes, if any (issue 45). */
  tokenScope?: ApiTokenScope;
  /** The status codes the route declares a response schema for (the route-contract test reads them). */
  responses: string[];
};

/**
 * The level a user acts with. The users feature decides it (setup mode makes the demo identity an
 * admin); the app passes it in, so the platform needs no feature.
 */
export type LevelOf = (user: UsersTable) => Promise<AccessLevel>;

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1] ?? null;
}

/** Resolves a bearer token to an auth context; null when absent, unknown, expired or revoked. */
export async function authenticate(
  db: Db,
  levelOf: LevelOf,
  token: string | null,
): Promise<AuthContext | null> {
  if (!token || token.length > 512) return null;
  const session = await findSession(db, token);
  if (!session) return null;
  return { user: session.user, level: await levelOf(session.user), tokenHash: session.tokenHash };
}

/** Throws the 401/403 the route's declared access calls for. */
export function enforceAccess(access: RouteAccess, auth: AuthContext | null, hadToken: boolean): void {
  if (access === 'public') return;
  if (!auth) throw fail('AUTH_REQUIRED', hadToken ? TEXTS.sessionInvalid : TEXTS.authRequired);
  if (auth.user.is_approved !== 1) throw fail('NOT_APPROVED', TEXTS.notApproved);
  if (access !== 'login' && !hasLevel(auth.level, access)) {
    throw fail('FORBIDDEN', TEXTS.insufficientLevel(access));
  }
}

/** One hook enforces every route's declared access; a route without a declaration fails startup. */
export function registerAccessControl(app: FastifyInstance, db: Db, levelOf: LevelOf): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access)`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const responses = Object.keys((route.schema?.response as object | undefined) ?? {});
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access, responses, tokenScope: route.config?.tokenScope });
    }
  });
  // Requests made with API tokens, per member and minute (created on first use: the rate-limit plugin,
  // which provides the counter, registers after this hook).
  let tokenRequests: FailureLimiter | undefined;
  const tokenBudget = () => {
    tokenRequests ??= app.createFailureLimiter('api-token-requests', API_TOKEN_REQUESTS_PER_MINUTE, 60_000);
    return tokenRequests;
  };
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config?.access;
    if (!access) return; // not-found handler
    const token = bearerToken(request.headers.authorization);
    if (token !== null && isApiToken(token)) {
      request.auth = await authenticateApiToken(db, levelOf, token, request, tokenBudget);
      if (request.auth || access !== 'public') enforceAccess(access, request.auth, true);
      return;
    }
    request.auth = await authenticate(db, levelOf, token);
    enforceAccess(access, request.auth, token !== null);
  });
}

/**
 * A personal API token on a route (issue 45): only routes that declare a `tokenScope` the token holds
 * take it (403 otherwise); an unknown, revoked or expired token is 401. On a public route without a
 * scope the token is simply not used (the caller is anonymous there, as with no header). Each use counts
 * against the member's token budget (429 beyond), on top of the per-address and per-route limits.
 */
async function authenticateApiToken(
  db: Db,
  levelOf: LevelOf,
  token: string,
  request: FastifyRequest,
  budget: () => FailureLimiter,
): Promise<AuthContext | null> {
  const scope = request.routeOptions.config?.tokenScope;
  const isPublic = request.routeOptions.config?.access === 'public';
  if (isPublic && !scope) return null;
  const found = token.length <= 512 ? await findApiToken(db, token) : null;
  if (!found) throw fail('API_TOKEN_INVALID', API_TOKEN_TEXTS.invalid);
  if (!scope) throw fail('API_TOKEN_SCOPE', API_TOKEN_TEXTS.notForTokens);
  if (!found.scopes.includes(scope)) throw fail('API_TOKEN_SCOPE', API_TOKEN_TEXTS.scopeMissing(scope));
  const attempt = await budget().begin(found.user.discord_id);
  if (!attempt.isAllowed) {
    const seconds = attempt.retryAfterSeconds;
    throw fail('RATE_LIMITED', rateLimitText(seconds), { 'retry-after': String(seconds) });
  }
  return {
    user: found.user,
    level: await levelOf(found.user),
    tokenHash: found.tokenHash,
    apiToken: { id: found.id, scopes: found.scopes },
  };
}
