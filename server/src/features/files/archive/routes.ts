import {
  ArchiveQuery,
  ArchiveTicketBody,
  BinaryBody,
  DownloadTicketResponse,
  FileIdParams,
} from '@guildhall/common';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../../platform/errors.ts';
import type { FilesContext } from '../context.ts';
import { startDownload } from '../download-limits.ts';
import { streamRange } from '../http-download.ts';
import { listChunks } from '../repo.ts';
import { requireFolder } from '../service.ts';
import { archiveEntries } from './entries.ts';
import { issueArchiveTicket, redeemArchiveTicket } from './tickets.ts';
import { zipStream } from './zip.ts';

/** ZIPs one member may be downloading at once (each holds a store reader and a socket). */
const ARCHIVES_PER_MEMBER = 2;

/**
 * Download a folder or a selection as one ZIP: POST /api/files/archive-ticket names the items and gives
 * a URL; GET /api/files/archive?ticket= streams the archive (no temporary copy; memory bounded).
 */
export function archiveRoutes(ctx: FilesContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  const open = new Map<string, number>();

  async function sendArchive(
    req: FastifyRequest,
    reply: FastifyReply,
    ids: string[],
    memberKey: string,
    name: string,
  ) {
    const entries = await archiveEntries(db, ids);
    if ((open.get(memberKey) ?? 0) >= ARCHIVES_PER_MEMBER) {
      throw fail(
        'TOO_MANY_ARCHIVES',
        `At most ${ARCHIVES_PER_MEMBER} ZIP downloads at once; wait for one to finish`,
        {
          'retry-after': '10',
        },
      );
    }
    open.set(memberKey, (open.get(memberKey) ?? 0) + 1);
    const release = () => {
      const n = (open.get(memberKey) ?? 1) - 1;
      if (n <= 0) open.delete(memberKey);
      else open.set(memberKey, n);
    };
    reply.raw.once('close', release);
    // A ZIP holds memory until its client takes it, as a file download does: the same slots and watch.
    await startDownload(ctx.downloads, req, reply, memberKey === req.ip ? null : memberKey);
    const { stream, size } = await zipStream(entries, async (fileId, bytes) =>
      streamRange(ctx.store, await listChunks(db, fileId), 0, bytes - 1),
    );
    stream.once('error', (err) => req.log.warn({ err }, 'ZIP download cut off'));
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(`${name}.zip`, { type: 'attachment' }))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-store');
    if (size >= 0) reply.header('content-length', String(size));
    return reply.send(stream);
  }

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
          db,
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
        const grant = await redeemArchiveTicket(db, req.query.ticket);
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
    const row = await db.selectFrom('files').select(['name', 'type']).where('id', '=', id).executeTakeFirst();
    if (!row) return 'shared-files';
    return row.type === 'folder' ? row.name : row.name.replace(/\.[^.]+$/, '') || row.name;
  }
}
