import path from 'node:path';
import {
  BreadcrumbsResponse,
  CategoriesResponse,
  CategorizeBody,
  CHUNK_SIZE_BYTES,
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
import type { AppDeps } from '../../app.ts';
import { createBlobStore } from '../../platform/blob-store/index.ts';
import { archiveRoutes } from './archive/routes.ts';
import { createGarbageCollector, type FilesContext } from './context.ts';
import { DOWNLOAD_BUFFER_BYTES } from './direct-send.ts';
import { downloadRoutes } from './download-routes.ts';
import { UploadSlots } from './fair-uploads.ts';
import { ChunkBufferPool } from './hashing/buffer-pool.ts';
import { hashPool } from './hashing/hash-pool.ts';
import { startMaintenance } from './maintenance.ts';
import { manageRoutes } from './manage-routes.ts';
import { presentItem } from './present.ts';
import { previewRoutes } from './preview.ts';
import { resumableRoutes } from './resumable/routes.ts';
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
import { createThumbnails } from './thumbnails/service.ts';
import { startTrashPurge } from './trash/purge.ts';
import { trashRoutes } from './trash/routes.ts';
import { uploadRoutes } from './upload-routes.ts';

const read = { access: 'login' } as const;
const write = { access: 'user' } as const;
/** At most this many 8 MiB chunk buffers exist at once (96 MiB), whatever the number of uploads. */
const MAX_CHUNK_BUFFERS = 12;
/** Downloads at once that read straight from disk into pooled, page-aligned buffers. */
const MAX_DOWNLOAD_BUFFERS = 16;

/**
 * The shared file system (portal-tools §7 Files): listings, folders, uploads, downloads and share
 * links, all on one blob store. Reads need a signed-in member; changes need level user or higher.
 */
export function filesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const store = createBlobStore(deps.config);
    app.readiness.add('fileStore', () => store.check());
    const ctx: FilesContext = {
      db: deps.db,
      store,
      maxUploadBytes: deps.config.maxUploadBytes,
      log: app.log,
      garbage: createGarbageCollector(deps.db, store, app.log),
      // Three kept free: what one upload cycles through, so a steady upload never reallocates.
      buffers: new ChunkBufferPool(CHUNK_SIZE_BYTES, MAX_CHUNK_BUFFERS, 3),
      // 6 MiB each; downloads past these read through the page cache into buffers of their own.
      downloadBuffers: new ChunkBufferPool(DOWNLOAD_BUFFER_BYTES, MAX_DOWNLOAD_BUFFERS, 2),
      hashes: hashPool(),
      fairness: deps.config.uploads,
      uploadSlots: new UploadSlots(deps.config.uploads.uploadsPerUser),
      limits: {
        defaultQuotaBytes: deps.config.storage.quotaBytes ?? null,
        reserveBytes: deps.config.storage.reserveBytes,
        // The reserve guards the disk the local store writes to; remote stores have their own limits.
        localBlobDir: deps.config.files.store === 'local' ? path.join(deps.config.dataDir, 'blobs') : null,
        resumablePerUser: deps.config.storage.resumablePerUser,
      },
    };
    const thumbnails = createThumbnails({
      db: deps.db,
      store,
      ffmpegPath: deps.config.music.ffmpegPath,
      log: app.log,
    });
    let maintenance: ReturnType<typeof startMaintenance> | null = null;
    let trashPurge: ReturnType<typeof startTrashPurge> | null = null;
    app.addHook('onReady', async () => {
      maintenance = startMaintenance(deps.db, store, app.log);
      trashPurge = startTrashPurge(ctx, app.log);
      ctx.hashes.warmUp(); // a fixed cost at start (two small threads), not during the first upload
    });
    app.addHook('onClose', async () => {
      await maintenance?.stop();
      await trashPurge?.stop();
      await thumbnails.close();
      await ctx.garbage.idle();
      await store.close(); // the S3 client's sockets, the Discord client's timers
    });

    await app.register(itemRoutes(ctx));
    await app.register(uploadRoutes(ctx));
    await app.register(resumableRoutes(ctx));
    await app.register(downloadRoutes(ctx));
    await app.register(storageLimitRoutes(ctx));
    await app.register(sharesRoutes(ctx, deps.config, thumbnails));
    await app.register(previewRoutes(ctx, thumbnails));
    await app.register(archiveRoutes(ctx));
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
        const row = await createFolder(db, req.auth!.user.discord_id, req.body);
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
        data: presentItem(await renameItem(db, req.params.id, req.body.newName)),
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
        data: presentItem(await categorizeFile(db, req.params.id, req.body.category)),
      }),
    );
  };
}
