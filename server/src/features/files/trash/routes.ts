import { FileIdParams, TrashListResponse, TrashPurgeResponse, TrashRestoreResponse } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoOn } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { presentItem } from '../present.ts';
import { emptyTrash, listTrash, purgeTrashItem, restoreItem } from './service.ts';

/** The trash: members see and restore what was deleted; only admins delete for good before the 30 days. */
export function trashRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/api/trash',
      { config: { access: 'login' }, schema: { response: { 200: TrashListResponse } } },
      async () => {
        const { items, bytes } = await listTrash(db);
        return { success: true as const, data: items, stats: { items: items.length, bytes } };
      },
    );

    app.post(
      '/api/trash/:id/restore',
      {
        config: { access: 'user' },
        schema: { params: FileIdParams, response: { 200: TrashRestoreResponse } },
      },
      async (req) => {
        const { row, message } = await restoreItem(db, req.params.id, isoOn(ctx.clock));
        return { success: true as const, data: presentItem(row), message };
      },
    );

    app.delete(
      '/api/trash/:id',
      {
        config: { access: 'admin' },
        schema: { params: FileIdParams, response: { 200: TrashPurgeResponse } },
      },
      async (req) => ({
        success: true as const,
        data: { purgedItems: await purgeTrashItem(ctx, req.params.id) },
      }),
    );

    app.delete(
      '/api/trash',
      { config: { access: 'admin' }, schema: { response: { 200: TrashPurgeResponse } } },
      async () => ({ success: true as const, data: { purgedItems: await emptyTrash(ctx) } }),
    );
  };
}
