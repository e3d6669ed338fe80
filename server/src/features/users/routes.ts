import { hasLevel, PublicApprovedResponse, UserCheckResponse, UserResponse } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { effectiveLevel } from '../../platform/effective-level.ts';
import { httpError } from '../../platform/errors.ts';
import { presentApprovedEntry, presentUser } from './present.ts';
import { findUserById, listApprovedUsers } from './repo.ts';

const UserIdParams = z.object({
  id: z.string().min(1, { error: 'id is required' }).max(64, { error: 'id is too long' }),
});

/** Read-only user routes of the portal core; the admin write routes live in features/admin. */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db } = deps;
  return async (app) => {
    // Signed-in members only: id, username and level of approved users, nothing else (docs/api.md).
    app.get(
      '/api/users/public/approved',
      { config: { access: 'login' }, schema: { response: { 200: PublicApprovedResponse } } },
      async () => {
        const rows = await listApprovedUsers(db);
        return { success: true as const, data: rows.map(presentApprovedEntry) };
      },
    );

    // Approval and level by id; the full record only for yourself or an admin.
    app.get(
      '/api/users/check/:id',
      { config: { access: 'login' }, schema: { params: UserIdParams, response: { 200: UserCheckResponse } } },
      async (req) => {
        const row = await findUserById(db, req.params.id);
        const auth = req.auth!;
        const maySee = !!row && (row.discord_id === auth.user.discord_id || hasLevel(auth.level, 'admin'));
        const level = row ? await effectiveLevel(db, row) : null;
        return {
          success: true as const,
          data: {
            approved: row?.is_approved === 1,
            accessLevel: row?.is_approved === 1 ? level : null,
            user: maySee && row ? presentUser(row, level ?? undefined) : null,
          },
        };
      },
    );

    app.get(
      '/api/users/:id',
      { config: { access: 'login' }, schema: { params: UserIdParams, response: { 200: UserResponse } } },
      async (req) => {
        const auth = req.auth!;
        if (req.params.id !== auth.user.discord_id && !hasLevel(auth.level, 'admin')) {
          throw httpError(403, 'You can only view your own account', 'FORBIDDEN');
        }
        const row = await findUserById(db, req.params.id);
        if (!row) throw httpError(404, 'User not found', 'NOT_FOUND');
        return { success: true as const, data: presentUser(row, await effectiveLevel(db, row)) };
      },
    );
  };
}
