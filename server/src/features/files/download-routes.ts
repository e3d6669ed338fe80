import { BinaryBody, DownloadTicketResponse, FileIdParams, MyFilesResponse } from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, enforceAccess } from '../../platform/access.ts';
import { fail } from '../../platform/errors.ts';
import type { FilesContext } from './context.ts';
import { sendStoredFile } from './http-download.ts';
import { presentItem } from './present.ts';
import { listChunks, listOwnFiles } from './repo.ts';
import { requireFile } from './service.ts';
import { issueTicket, validTicketHolder } from './tickets.ts';

export const TicketQuery = z.object({
  ticket: z.string().max(128, { error: 'ticket is too long' }).optional(),
});

/** A stored file's answers: the bytes (whole or a range) or 304 Not Modified; errors use the envelope. */
export const FILE_RESPONSES = {
  200: BinaryBody,
  206: BinaryBody,
  304: BinaryBody.meta({ description: 'Not modified (empty body)' }),
};

/** The most recent uploads /api/files/mine lists. */
const MY_FILES_LIMIT = 500;

export const ticketExpired = () =>
  fail('TICKET_INVALID', 'This download link has expired. Start the download again.');

/**
 * GET /download/:id takes either the bearer token (API clients) or a download ticket (the browser's
 * download manager, which cannot send headers); tickets come from POST /api/files/:id/download-ticket.
 */
export function downloadRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.post(
      '/api/files/:id/download-ticket',
      {
        config: { access: 'login' },
        schema: { params: FileIdParams, response: { 200: DownloadTicketResponse } },
      },
      async (req): Promise<DownloadTicketResponse> => {
        const file = await requireFile(db, req.params.id);
        const ticket = await issueTicket(ctx, {
          fileId: file.id,
          shareId: null,
          userId: req.auth!.user.discord_id,
          sessionHash: req.auth!.tokenHash,
        });
        const url = `/download/${encodeURIComponent(file.id)}?ticket=${ticket.token}`;
        return { success: true as const, data: { url, expiresAt: ticket.expiresAt } };
      },
    );

    // The caller's own uploads, newest first: what an API token with `files:read` may list (issue 45).
    app.get(
      '/api/files/mine',
      {
        config: { access: 'login', tokenScope: 'files:read' },
        schema: { response: { 200: MyFilesResponse } },
      },
      async (req) => {
        const rows = await listOwnFiles(db, req.auth!.user.discord_id, MY_FILES_LIMIT);
        return { success: true as const, data: rows.map(presentItem) };
      },
    );

    app.get(
      '/download/:id',
      {
        // An API token with `files:read` may download its member's own uploads (issue 45).
        config: { access: 'public', tokenScope: 'files:read' },
        schema: { params: FileIdParams, querystring: TicketQuery, response: FILE_RESPONSES },
      },
      async (req, reply) => {
        const { id } = req.params;
        let member = req.auth?.user.discord_id ?? null;
        if (req.query.ticket !== undefined) {
          const holder = await validTicketHolder(ctx, req.query.ticket, id, null);
          if (!holder) throw ticketExpired();
          member = holder.userId ?? member; // the browser's download manager sends no session
        } else {
          enforceAccess('login', req.auth, bearerToken(req.headers.authorization) !== null);
        }
        const file = await requireFile(db, id);
        if (req.auth?.apiToken && file.owner_id !== req.auth.user.discord_id) {
          throw fail('NOT_FOUND', 'File not found');
        }
        return sendStoredFile(req, reply, ctx, file, await listChunks(db, id), undefined, undefined, member);
      },
    );
  };
}
