import {
  ArchiveQuery,
  ArchiveTicketBody,
  BinaryBody,
  DownloadTicketResponse,
  FileIdParams,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../../platform/errors.ts';
import type { FilesContext } from '../context.ts';
import { findItem } from '../repo.ts';
import { requireFolder } from '../service.ts';
import { archiveEntries } from './entries.ts';
import type { ArchiveSender } from './send.ts';
import { issueArchiveTicket, redeemArchiveTicket } from './tickets.ts';

/**
 * Download a folder or a selection as one ZIP: POST /api/files/archive-ticket names the items and gives
 * a URL; GET /api/files/archive?ticket= streams the archive (no temporary copy; memory bounded).
 */
export function archiveRoutes(ctx: FilesContext, sendArchive: ArchiveSender): FastifyPluginAsyncZod {
  const { db } = ctx;

  return async (app) => {
    app.post(
      '/api/files/archive-ticket',
      {
        config: { access: 'login' },
        schema: { body: ArchiveTicketBody, response: { 200: DownloadTicketResponse } },
      },
      async (req) => {
        await archiveEntries(db, req.body.ids); // 404 / 400 now rather than in the browser's download bar
        const ticket = await issueArchiveTicket(
          ctx,
          req.body.ids,
          req.auth!.user.discord_id,
          req.auth!.tokenHash,
        );
        return {
          success: true as const,
          data: { url: `/api/files/archive?ticket=${ticket.token}`, expiresAt: ticket.expiresAt },
        };
      },
    );

    app.get(
      '/api/files/archive',
      { config: { access: 'public' }, schema: { querystring: ArchiveQuery, response: { 200: BinaryBody } } },
      async (req, reply) => {
        const grant = await redeemArchiveTicket(ctx, req.query.ticket);
        if (!grant) throw fail('TICKET_INVALID', 'This download link has expired. Start the download again.');
        const name = grant.ids.length === 1 ? await singleName(grant.ids[0]!) : 'shared-files';
        return sendArchive(req, reply, grant.ids, grant.userId ?? req.ip, name);
      },
    );

    // API clients with the bearer token: a folder as ZIP in one request.
    app.get(
      '/api/folders/:id/archive',
      { config: { access: 'login' }, schema: { params: FileIdParams, response: { 200: BinaryBody } } },
      async (req, reply) => {
        const folder = await requireFolder(db, req.params.id);
        return sendArchive(req, reply, [folder.id], req.auth!.user.discord_id, folder.name);
      },
    );
  };

  async function singleName(id: string): Promise<string> {
    const row = await findItem(db, id);
    if (!row) return 'shared-files';
    return row.type === 'folder' ? row.name : row.name.replace(/\.[^.]+$/, '') || row.name;
  }
}
