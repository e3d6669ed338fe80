import {
  BinaryBody,
  DownloadTicketResponse,
  SharedFolderFileParams,
  SharedFolderFilesResponse,
  ShareTokenParams,
} from '@guildhall/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dateOn } from '../../../platform/time.ts';
import type { ArchiveSender } from '../archive/send.ts';
import type { FilesContext } from '../context.ts';
import { FILE_RESPONSES, TicketQuery, ticketExpired } from '../download-routes.ts';
import { sendThumbnail, THUMBNAIL_RESPONSES } from '../preview.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';
import type { Thumbnails } from '../thumbnails/service.ts';
import { issueTicket, isTicketValid } from '../tickets.ts';
import { sendSharedFile } from './download-limit.ts';
import { noticeDownload } from './download-notice.ts';
import { listSharedFolderFiles, presentSharedFolderFile, requireSharedFolderFile } from './folder-shares.ts';
import { incrementDownloadCount, takeLimitedDownload } from './repo.ts';
import { findLiveShareOf, isLinkPreview, shareLimitReached } from './service.ts';

type Deps = {
  ctx: FilesContext;
  thumbnails: Thumbnails;
  sendArchive: ArchiveSender;
  /** The share's access level and password, as every /shared/:token call checks them. */
  checkShareAccess: (req: FastifyRequest, share: FileSharesTable) => Promise<void>;
};

type TokenRequest = FastifyRequest<{ Params: { token: string }; Querystring: { ticket?: string } }>;

const open = { access: 'public' } as const;

/**
 * The calls of a folder share (issue 45, docs/files.md "Folder shares"): its files, each file's
 * ticket, download and thumbnail, and all of them as one ZIP. Same access, password, expiry and
 * limit rules as a file share; a file share's token is a 404 here, as a folder's is on the file routes.
 */
export function folderShareRoutes(app: FastifyInstance, deps: Deps): void {
  const { ctx, thumbnails, sendArchive, checkShareAccess } = deps;
  const { db } = ctx;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** A live folder share the caller may open (410 once its limit is reached). */
  const openFolderShare = async (req: FastifyRequest<{ Params: { token: string } }>) => {
    const found = await findLiveShareOf(db, req.params.token, 'folder', dateOn(ctx.clock));
    await checkShareAccess(req, found.share);
    return { share: found.share, folder: found.file };
  };

  /** As openFolderShare for the byte routes: by a ticket for `ticketItem`, else by the share's rules. */
  const folderShareForBytes = async (
    req: TokenRequest,
    ticketItem: (folder: FilesTable) => Promise<FilesTable>,
    allowLimitReached: boolean,
  ) => {
    const found = await findLiveShareOf(db, req.params.token, 'folder', dateOn(ctx.clock), {
      allowLimitReached,
    });
    const item = await ticketItem(found.file);
    if (req.query.ticket !== undefined) {
      if (!(await isTicketValid(ctx, req.query.ticket, item.id, found.share.id))) throw ticketExpired();
    } else {
      await checkShareAccess(req, found.share);
    }
    return { share: found.share, folder: found.file, item };
  };

  const ticketFor = async (req: FastifyRequest, share: FileSharesTable, itemId: string, path: string) => {
    const ticket = await issueTicket(ctx, {
      fileId: itemId,
      shareId: share.id,
      userId: req.auth?.user.discord_id ?? null,
      sessionHash: req.auth?.tokenHash ?? null,
    });
    return {
      success: true as const,
      data: { url: `${path}?ticket=${ticket.token}`, expiresAt: ticket.expiresAt },
    };
  };

  // The folder's files, read now: files added later appear, trashed ones are gone. Never counts.
  api.get(
    '/api/files/shared/:token/files',
    { config: open, schema: { params: ShareTokenParams, response: { 200: SharedFolderFilesResponse } } },
    async (req) => {
      const { folder } = await openFolderShare(req);
      const files = await listSharedFolderFiles(db, folder.id);
      return { success: true as const, data: files.map(presentSharedFolderFile) };
    },
  );

  api.post(
    '/api/files/shared/:token/files/:fileId/ticket',
    { config: open, schema: { params: SharedFolderFileParams, response: { 200: DownloadTicketResponse } } },
    async (req) => {
      const { share, folder } = await openFolderShare(req);
      const file = await requireSharedFolderFile(db, folder.id, req.params.fileId);
      return ticketFor(req, share, file.id, `/api/files/shared/${share.token}/files/${file.id}/download`);
    },
  );

  // One file of the folder, counted as one download of the share, by the file share's rules.
  api.get(
    '/api/files/shared/:token/files/:fileId/download',
    {
      config: open,
      schema: { params: SharedFolderFileParams, querystring: TicketQuery, response: FILE_RESPONSES },
    },
    async (req, reply) => {
      const { share, item: file } = await folderShareForBytes(
        req,
        (folder) => requireSharedFolderFile(db, folder.id, req.params.fileId),
        true,
      );
      return sendSharedFile(ctx, req, reply, share, file, req.query.ticket);
    },
  );

  api.get(
    '/api/files/shared/:token/files/:fileId/thumbnail',
    { config: open, schema: { params: SharedFolderFileParams, response: THUMBNAIL_RESPONSES } },
    async (req, reply) => {
      const { folder } = await openFolderShare(req);
      const file = await requireSharedFolderFile(db, folder.id, req.params.fileId);
      return sendThumbnail(req, reply, thumbnails, file);
    },
  );

  api.post(
    '/api/files/shared/:token/archive-ticket',
    { config: open, schema: { params: ShareTokenParams, response: { 200: DownloadTicketResponse } } },
    async (req) => {
      const { share, folder } = await openFolderShare(req);
      return ticketFor(req, share, folder.id, `/api/files/shared/${share.token}/archive`);
    },
  );

  // All the folder's files as one ZIP (the streaming ZIP of the file manager), one download of the share.
  api.get(
    '/api/files/shared/:token/archive',
    {
      config: open,
      schema: { params: ShareTokenParams, querystring: TicketQuery, response: { 200: BinaryBody } },
    },
    async (req, reply) => {
      const { share, folder } = await folderShareForBytes(req, async (f) => f, false);
      const files = await listSharedFolderFiles(db, folder.id);
      // Counted when admitted, before its first byte: a ZIP has no Range resume, and a limit must hold.
      const admit = async () => {
        if (req.method === 'HEAD' || isLinkPreview(req.headers['user-agent'])) return;
        if (share.max_downloads == null) await incrementDownloadCount(db, share.id);
        else if (!(await takeLimitedDownload(db, share.id))) throw shareLimitReached();
        await noticeDownload(db, ctx.log, share, folder, dateOn(ctx.clock));
      };
      const memberKey = req.auth?.user.discord_id ?? req.ip;
      return sendArchive(
        req,
        reply,
        files.map((f) => f.id),
        memberKey,
        folder.name,
        admit,
      );
    },
  );
}
