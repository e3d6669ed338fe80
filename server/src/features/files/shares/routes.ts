import {
  ApiError,
  BinaryBody,
  DownloadTicketResponse,
  FileIdParams,
  OkResponse,
  SHARE_PASSWORD_HEADER,
  SHARE_PASSWORD_MAX_FAILURES,
  SHARE_PASSWORD_WINDOW_MS,
  ShareCreateBody,
  SharedInfoResponse,
  ShareIdParams,
  ShareResponse,
  SharesListResponse,
  ShareTokenParams,
  ShareUpdateBody,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientAddressKey } from '../../../platform/client-address.ts';
import { appPageWithHead } from '../../../platform/static.ts';
import { dateOn } from '../../../platform/time.ts';
import type { ArchiveSender } from '../archive/send.ts';
import type { FilesFeatureConfig } from '../config.ts';
import type { FilesContext } from '../context.ts';
import { FILE_RESPONSES, TicketQuery, ticketExpired } from '../download-routes.ts';
import { sendStoredFile } from '../http-download.ts';
import { presentationOf, sendThumbnail, THUMBNAIL_RESPONSES } from '../preview.ts';
import { listChunks } from '../repo.ts';
import type { FileSharesTable } from '../tables.ts';
import type { Thumbnails } from '../thumbnails/service.ts';
import { issueTicket, isTicketValid } from '../tickets.ts';
import { publicUrlWarning, shareBaseUrl } from './base-url.ts';
import { notPreviewed, sendSharedFile } from './download-limit.ts';
import { folderShareRoutes } from './folder-routes.ts';
import { listSharedFolderFiles } from './folder-shares.ts';
import { requireSharePassword } from './password.ts';
import { presentShare, presentSharedInfo } from './present.ts';
import {
  createShare,
  findLiveShare,
  findLiveShareOf,
  listShares,
  requireShareAccess,
  revokeShare,
  shareNotFound,
  updateShare,
} from './service.ts';
import { noteNewShare } from './share-note.ts';
import { escapeHtml, oembedOf, SITE_NAME, shareUnfurl, unfurlHead } from './unfurl.ts';

const SharePage = BinaryBody.meta({
  description: "The web app's page for a share link, with its link-preview tags when it is public",
});
const NotBuilt = BinaryBody.meta({ description: 'Plain text: the web app is not built yet' });
const OembedResponse = z
  .object({
    version: z.literal('1.0'),
    type: z.literal('link'),
    title: z.string(),
    provider_name: z.string(),
    provider_url: z.string(),
    author_name: z.string().optional(),
    thumbnail_url: z.string().optional(),
    thumbnail_width: z.number().optional(),
    thumbnail_height: z.number().optional(),
  })
  .meta({ description: 'oEmbed 1.0 (type link) of a public share' });

// Managing shares: level user, and API tokens with the `shares` scope (issue 45).
const write = { access: 'user', tokenScope: 'shares' } as const;
const open = { access: 'public' } as const;

/**
 * Share links (portal-tools §7): managing them needs level user; the /shared/:token calls are public
 * and check the share's own access level.
 */
export function sharesRoutes(
  ctx: FilesContext,
  config: FilesFeatureConfig,
  thumbnails: Thumbnails,
  sendArchive: ArchiveSender,
): FastifyPluginAsyncZod {
  const { db } = ctx;
  const baseUrl = (req: FastifyRequest) => shareBaseUrl(config, req);

  return async (app) => {
    const passwordFailures = app.createFailureLimiter(
      'share-password',
      SHARE_PASSWORD_MAX_FAILURES,
      SHARE_PASSWORD_WINDOW_MS,
    );
    /** The caller may open this share: its access level, then its password if it has one. */
    const checkShareAccess = async (req: FastifyRequest, share: FileSharesTable) => {
      requireShareAccess(share, req.auth);
      await requireSharePassword(
        share,
        req.headers[SHARE_PASSWORD_HEADER],
        passwordFailures,
        clientAddressKey(req.ip),
      );
    };
    /** A live share the caller may open. */
    const openShare = async (req: FastifyRequest<{ Params: { token: string } }>) => {
      const found = await findLiveShare(db, req.params.token, dateOn(ctx.clock));
      await checkShareAccess(req, found.share);
      return found;
    };
    /**
     * A live share for its download or preview route: by its ticket (the browser's download manager)
     * or by the share's own rules. A limited share that has reached its limit is still found here, so
     * a download it admitted can be resumed (download-limit.ts decides).
     */
    const shareForBytes = async (
      req: FastifyRequest<{ Params: { token: string }; Querystring: { ticket?: string } }>,
    ) => {
      const found = await findLiveShare(db, req.params.token, dateOn(ctx.clock), {
        allowLimitReached: true,
      });
      if (req.query.ticket !== undefined) {
        if (!(await isTicketValid(ctx, req.query.ticket, found.file.id, found.share.id))) {
          throw ticketExpired();
        }
      } else {
        await checkShareAccess(req, found.share);
      }
      return found;
    };
    folderShareRoutes(app, { ctx, thumbnails, sendArchive, checkShareAccess });
    const warning = publicUrlWarning(config);
    if (warning) app.log.warn(warning);
    app.post(
      '/api/files/:id/share',
      {
        config: write,
        schema: { params: FileIdParams, body: ShareCreateBody, response: { 201: ShareResponse } },
      },
      async (req, reply) => {
        const row = await createShare(
          db,
          req.params.id,
          req.auth!.user.discord_id,
          req.body,
          dateOn(ctx.clock),
        );
        await noteNewShare(db, req.log, row);
        return reply
          .code(201)
          .send({ success: true as const, data: presentShare(row, baseUrl(req), ctx.clock.now()) });
      },
    );

    app.get(
      '/api/files/:id/shares',
      { config: write, schema: { params: FileIdParams, response: { 200: SharesListResponse } } },
      async (req) => {
        const rows = await listShares(db, req.params.id);
        return {
          success: true as const,
          data: rows.map((r) => presentShare(r, baseUrl(req), ctx.clock.now())),
        };
      },
    );

    app.patch(
      '/api/files/shares/:shareId',
      {
        config: write,
        schema: { params: ShareIdParams, body: ShareUpdateBody, response: { 200: ShareResponse } },
      },
      async (req) => {
        const row = await updateShare(db, req.params.shareId, req.body, dateOn(ctx.clock));
        return { success: true as const, data: presentShare(row, baseUrl(req), ctx.clock.now()) };
      },
    );

    app.delete(
      '/api/files/shares/:shareId',
      { config: write, schema: { params: ShareIdParams, response: { 200: OkResponse } } },
      async (req) => {
        await revokeShare(db, req.params.shareId, dateOn(ctx.clock));
        return { success: true as const, message: 'Share revoked' };
      },
    );

    // The share's page (the SPA's index.html) with Open Graph, Twitter-card and oEmbed tags, so a link
    // pasted in Discord unfurls. Reads only: a crawler's GET or a HEAD never counts as a download.
    app.get(
      '/shared/:token',
      {
        config: open,
        schema: { params: ShareTokenParams, response: { 200: SharePage, 503: NotBuilt } },
      },
      async (req, reply) => {
        const unfurl = await shareUnfurl(db, req.params.token, baseUrl(req), dateOn(ctx.clock));
        // Anything but a public, open share gets the site's own title only: nothing of the file shows.
        const head = unfurl ? unfurlHead(unfurl) : `<title>${escapeHtml(SITE_NAME)}</title>`;
        const html = appPageWithHead(config.webDistDir, head);
        if (html === null) {
          return reply
            .code(503)
            .type('text/plain')
            .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
        }
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
      },
    );

    // oEmbed (https://oembed.com) of a public, open share; 404 for any other, like a link that never was.
    app.get(
      '/api/files/shared/:token/oembed',
      {
        config: open,
        schema: { params: ShareTokenParams, response: { 200: OembedResponse, 404: ApiError } },
      },
      async (req) => {
        const unfurl = await shareUnfurl(db, req.params.token, baseUrl(req), dateOn(ctx.clock));
        if (!unfurl) throw shareNotFound();
        return oembedOf(unfurl, baseUrl(req));
      },
    );

    // Info only: never counts as a download.
    app.get(
      '/api/files/shared/:token',
      { config: open, schema: { params: ShareTokenParams, response: { 200: SharedInfoResponse } } },
      async (req) => {
        // A file or a folder (issue 45): the page asks a folder share for its files next.
        const { share, file } = await findLiveShareOf(db, req.params.token, 'any', dateOn(ctx.clock));
        await checkShareAccess(req, share);
        if (file.type === 'file') return { success: true as const, data: presentSharedInfo(share, file) };
        const files = await listSharedFolderFiles(db, file.id);
        const bytes = files.reduce((sum, f) => sum + Number(f.size), 0);
        return { success: true as const, data: presentSharedInfo(share, file, bytes) };
      },
    );

    // For the browser's download manager: a short-lived URL for this share's file (needed for `user` shares).
    app.post(
      '/api/files/shared/:token/ticket',
      { config: open, schema: { params: ShareTokenParams, response: { 200: DownloadTicketResponse } } },
      async (req) => {
        const { share, file } = await openShare(req);
        const ticket = await issueTicket(ctx, {
          fileId: file.id,
          shareId: share.id,
          userId: req.auth?.user.discord_id ?? null,
          sessionHash: req.auth?.tokenHash ?? null,
        });
        const url = `/api/files/shared/${share.token}/download?ticket=${ticket.token}`;
        return { success: true as const, data: { url, expiresAt: ticket.expiresAt } };
      },
    );

    app.get(
      '/api/files/shared/:token/download',
      {
        config: open,
        schema: { params: ShareTokenParams, querystring: TicketQuery, response: FILE_RESPONSES },
      },
      async (req, reply) => {
        const { share, file } = await shareForBytes(req);
        return sendSharedFile(ctx, req, reply, share, file, req.query.ticket);
      },
    );

    // The preview viewer on the shared-link page: inline with the sandboxing CSP, never counted as a download.
    app.get(
      '/api/files/shared/:token/preview',
      {
        config: open,
        schema: { params: ShareTokenParams, querystring: TicketQuery, response: FILE_RESPONSES },
      },
      async (req, reply) => {
        const { share, file } = await shareForBytes(req);
        // Every view of a limited link would be a download: it offers Download only.
        if (share.max_downloads != null) throw notPreviewed();
        const chunks = await listChunks(db, file.id);
        return sendStoredFile(req, reply, ctx, file, chunks, undefined, presentationOf(file));
      },
    );

    app.get(
      '/api/files/shared/:token/thumbnail',
      { config: open, schema: { params: ShareTokenParams, response: THUMBNAIL_RESPONSES } },
      async (req, reply) => {
        const { file } = await openShare(req);
        return sendThumbnail(req, reply, thumbnails, file);
      },
    );
  };
}
