import { FileFindQuery, FileFindResponse, MoveBody, MoveResponse } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FilesContext } from './context.ts';
import { moveItems } from './move.ts';
import { findItemsByName } from './search/search.ts';

/** Search by name across every folder, and moving items between folders. */
export function manageRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/api/files/find',
      {
        config: { access: 'login' },
        schema: { querystring: FileFindQuery, response: { 200: FileFindResponse } },
      },
      async (req) => {
        const { hits, truncated } = await findItemsByName(db, req.query.q);
        return { success: true as const, data: hits, truncated };
      },
    );

    app.post(
      '/api/files/move',
      { config: { access: 'user' }, schema: { body: MoveBody, response: { 200: MoveResponse } } },
      async (req) => ({ success: true as const, data: await moveItems(ctx, req.body) }),
    );
  };
}
