import {
  AdminStorageResponse,
  StorageQuotaBody,
  StorageQuotaParams,
  StorageQuotaResponse,
  StorageUsageResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoOn } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { adminStorageList, setQuota, usageOf } from './service.ts';

/** A member's own usage (the files header) and the admins' quota management (issue 15). */
export function storageLimitRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/files/usage',
      { config: { access: 'login' }, schema: { response: { 200: StorageUsageResponse } } },
      async (req) => ({
        success: true as const,
        data: await usageOf(ctx.db, ctx.limits, req.auth!.user.discord_id),
      }),
    );

    app.get(
      '/api/admin/storage',
      { config: { access: 'admin' }, schema: { response: { 200: AdminStorageResponse } } },
      async () => ({
        success: true as const,
        data: await adminStorageList(ctx.db, ctx.limits),
        defaultQuotaBytes: ctx.limits.defaultQuotaBytes,
      }),
    );

    app.put(
      '/api/admin/storage/:userId',
      {
        config: { access: 'admin' },
        schema: {
          params: StorageQuotaParams,
          body: StorageQuotaBody,
          response: { 200: StorageQuotaResponse },
        },
      },
      async (req) => {
        const { discord_id: id, username } = req.auth!.user;
        const entry = await setQuota(
          ctx.db,
          ctx.limits,
          { id, username },
          req.params.userId,
          req.body.quotaBytes,
          isoOn(ctx.clock),
        );
        return { success: true as const, data: entry };
      },
    );
  };
}
