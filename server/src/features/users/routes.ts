import { PublicApprovedResponse, UserCheckResponse, UserIdParams, UserResponse } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureContext } from '../../platform/feature.ts';
import { presentApprovedEntry, presentUser } from './present.ts';
import { checkUser, listApprovedUsers, viewUser } from './service.ts';

const login = { access: 'login' } as const;

/** Read-only user routes of the portal core; the admin write routes live in features/admin. */
export function usersRoutes(deps: FeatureContext): FastifyPluginAsyncZod {
  const { db } = deps;
  return async (app) => {
    // Signed-in members only: id, username and level of approved users, nothing else (docs/api.md).
    app.get(
      '/api/users/public/approved',
      { config: login, schema: { response: { 200: PublicApprovedResponse } } },
      async () => {
        const rows = await listApprovedUsers(db);
        return { success: true as const, data: rows.map(presentApprovedEntry) };
      },
    );

    app.get(
      '/api/users/check/:id',
      { config: login, schema: { params: UserIdParams, response: { 200: UserCheckResponse } } },
      async (req) => {
        const found = await checkUser(db, req.auth!, req.params.id);
        return {
          success: true as const,
          data: {
            approved: found.isApproved,
            accessLevel: found.level,
            user: found.visible ? presentUser(found.visible.row, found.visible.level) : null,
          },
        };
      },
    );

    app.get(
      '/api/users/:id',
      { config: login, schema: { params: UserIdParams, response: { 200: UserResponse } } },
      async (req) => {
        const { row, level } = await viewUser(db, req.auth!, req.params.id);
        return { success: true as const, data: presentUser(row, level) };
      },
    );
  };
}
