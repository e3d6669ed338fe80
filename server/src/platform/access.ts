import { type AccessLevel, hasLevel, type RouteAccess, TEXTS } from '@guildhall/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { fail } from './errors.ts';
import { findSession } from './sessions.ts';

export type AuthContext = {
  user: UsersTable;
  level: AccessLevel;
  tokenHash: string;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every route must declare it; startup fails otherwise. */
    access?: RouteAccess;
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
      routes.push({ method, url: route.url, access, responses });
    }
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config?.access;
    if (!access) return; // not-found handler
    const token = bearerToken(request.headers.authorization);
    request.auth = await authenticate(db, levelOf, token);
    enforceAccess(access, request.auth, token !== null);
  });
}
