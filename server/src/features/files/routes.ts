import {
  BreadcrumbsResponse,
  CategoriesResponse,
  CategorizeBody,
  DeleteResponse,
  FileIdParams,
  FilesLimitsResponse,
  FilesListQuery,
  FilesListResponse,
  FilesSearchQuery,
  FilesSearchResponse,
  FolderCreateBody,
  FolderStatsResponse,
  ItemResponse,
  RenameBody,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { archiveRoutes } from './archive/routes.ts';
import type { ArchiveSender } from './archive/send.ts';
import type { FilesFeatureConfig } from './config.ts';
import type { FilesContext } from './context.ts';
import { downloadRoutes } from './download-routes.ts';
import { manageRoutes } from './manage-routes.ts';
import { presentItem } from './present.ts';
import { previewRoutes } from './preview.ts';
import { resumableRoutes } from './resumable/routes.ts';
import type { ChunkTusStore } from './resumable/tus-store.ts';
import {
  breadcrumbs,
  categories,
  categorizeFile,
  createFolder,
  deleteFile,
  deleteFolder,
  folderContents,
  listFolder,
  renameItem,
  searchFiles,
} from './service.ts';
import { sharesRoutes } from './shares/routes.ts';
import { storageLimitRoutes } from './storage-limits/routes.ts';
import type { Thumbnails } from './thumbnails/service.ts';
import { trashRoutes } from './trash/routes.ts';
import { guestUploadRoutes } from './upload-requests/guest-routes.ts';
import { uploadRequestRoutes } from './upload-requests/routes.ts';
import { uploadRoutes } from './upload-routes.ts';

const read = { access: 'login' } as const;
const write = { access: 'user' } as const;
/**
 * The shared file system (portal-tools §7 Files): listings, folders, uploads, downloads and share
 * links, all on one blob store. Reads need a signed-in member; changes need level user or higher.
 * The services behind them are built by the feature definition (index.ts).
 */
export function filesRoutes(
  ctx: FilesContext,
  config: FilesFeatureConfig,
  thumbnails: Thumbnails,
  services: { sendArchive: ArchiveSender; tusStore: ChunkTusStore },
): FastifyPluginAsyncZod {
  const { sendArchive, tusStore } = services;
  return async (app) => {
    await app.register(itemRoutes(ctx));
    await app.register(uploadRoutes(ctx, config));
    await app.register(resumableRoutes(ctx, tusStore));
    // Upload requests (issue 45): guests upload on the same tus chunk store as members.
    await app.register(guestUploadRoutes(ctx, tusStore));
    await app.register(uploadRequestRoutes(ctx, config));
    await app.register(downloadRoutes(ctx));
    await app.register(storageLimitRoutes(ctx));
    await app.register(sharesRoutes(ctx, config, thumbnails, sendArchive));
    await app.register(previewRoutes(ctx, thumbnails));
    await app.register(archiveRoutes(ctx, sendArchive));
    await app.register(manageRoutes(ctx));
    await app.register(trashRoutes(ctx));
  };
}

function itemRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/api/files',
      { config: read, schema: { querystring: FilesListQuery, response: { 200: FilesListResponse } } },
      async (req) => {
        const { items, stats } = await listFolder(db, req.query.folderId);
        return { success: true as const, data: items.map(presentItem), stats };
      },
    );

    app.get(
      '/api/files/search',
      { config: read, schema: { querystring: FilesSearchQuery, response: { 200: FilesSearchResponse } } },
      async (req) => {
        const { items, stats } = await searchFiles(db, req.query.category);
        return { success: true as const, data: items.map(presentItem), stats };
      },
    );

    app.get(
      '/api/files/limits',
      { config: read, schema: { response: { 200: FilesLimitsResponse } } },
      async () => ({
        success: true as const,
        data: { maxUploadBytes: ctx.maxUploadBytes },
      }),
    );

    app.get(
      '/api/categories',
      { config: read, schema: { response: { 200: CategoriesResponse } } },
      async () => ({ success: true as const, data: await categories(db) }),
    );

    app.get(
      '/api/folders/:id/breadcrumbs',
      { config: read, schema: { params: FileIdParams, response: { 200: BreadcrumbsResponse } } },
      async (req) => ({
        success: true as const,
        data: await breadcrumbs(db, req.params.id),
      }),
    );

    app.get(
      '/api/folders/:id/contents',
      { config: read, schema: { params: FileIdParams, response: { 200: FolderStatsResponse } } },
      async (req) => ({
        success: true as const,
        data: await folderContents(db, req.params.id),
      }),
    );

    app.post(
      '/api/folders',
      { config: write, schema: { body: FolderCreateBody, response: { 201: ItemResponse } } },
      async (req, reply) => {
        const row = await createFolder(ctx, req.auth!.user.discord_id, req.body);
        return reply.code(201).send({ success: true as const, data: presentItem(row) });
      },
    );

    app.delete(
      '/api/folders/:id',
      { config: write, schema: { params: FileIdParams, response: { 200: DeleteResponse } } },
      async (req) => ({
        success: true as const,
        data: await deleteFolder(ctx, req.params.id, req.auth!.user.discord_id),
      }),
    );

    app.delete(
      '/api/files/:id',
      { config: write, schema: { params: FileIdParams, response: { 200: DeleteResponse } } },
      async (req) => ({
        success: true as const,
        data: await deleteFile(ctx, req.params.id, req.auth!.user.discord_id),
      }),
    );

    app.put(
      '/api/files/:id/rename',
      { config: write, schema: { params: FileIdParams, body: RenameBody, response: { 200: ItemResponse } } },
      async (req) => ({
        success: true as const,
        data: presentItem(await renameItem(ctx, req.params.id, req.body.newName)),
      }),
    );

    app.put(
      '/api/files/:id/categorize',
      {
        config: write,
        schema: { params: FileIdParams, body: CategorizeBody, response: { 200: ItemResponse } },
      },
      async (req) => ({
        success: true as const,
        data: presentItem(await categorizeFile(ctx, req.params.id, req.body.category)),
      }),
    );
  };
}
