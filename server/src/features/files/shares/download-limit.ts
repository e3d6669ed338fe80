import { SHARE_LINK_TEXTS, SHARE_RESUME_WINDOW_MS } from '@guildhall/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/index.ts';
import { clientAddressKey } from '../../../platform/client-address.ts';
import { sha256Hex } from '../../../platform/crypto.ts';
import { fail } from '../../../platform/errors.ts';
import { dateOn } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { firstByteAsked, sendStoredFile } from '../http-download.ts';
import { listChunks } from '../repo.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';
import { noticeDownload } from './download-notice.ts';
import { hasClaimSince, incrementDownloadCount, recordClaim, takeLimitedDownload } from './repo.ts';
import { isLimitReached, isLinkPreview, shareLimitReached } from './service.ts';

export const notPreviewed = () => fail('SHARE_NOT_PREVIEWED', SHARE_LINK_TEXTS.notPreviewed);

/**
 * Admits a request on a share with a download limit (docs/files.md, "Download limits"), before any
 * byte is sent:
 * - a request that carries no bytes of the file (HEAD, 304, 416) never counts, but says so once the
 *   limit is reached;
 * - a link-preview bot gets no bytes (403), so it never uses up a download and a forged user agent
 *   cannot fetch past the limit;
 * - a request starting at byte 0 is a new download: it takes one in one atomic update (410 when none
 *   is left), and records the client (its download ticket, else its address);
 * - a Range request starting later continues a download that client began within the resume window
 *   without counting; from any other client it counts as a new download.
 */
export async function admitLimitedDownload(
  db: Db,
  req: FastifyRequest,
  share: FileSharesTable,
  file: FilesTable,
  ticket: string | undefined,
  now: Date,
): Promise<boolean> {
  if (isLinkPreview(req.headers['user-agent'])) throw notPreviewed();
  const start = firstByteAsked(req, file);
  if (start === null) {
    if (isLimitReached(share)) throw shareLimitReached();
    return false;
  }
  const key = ticket ? `ticket:${sha256Hex(ticket)}` : `addr:${clientAddressKey(req.ip)}`;
  const windowStart = new Date(now.getTime() - SHARE_RESUME_WINDOW_MS).toISOString();
  if (start > 0 && (await hasClaimSince(db, share.id, key, windowStart))) return false;
  if (!(await takeLimitedDownload(db, share.id))) throw shareLimitReached();
  await recordClaim(db, share.id, key, now.toISOString(), windowStart);
  return true;
}

/**
 * Sends a shared file's bytes and counts the download (a file share's link, or one file of a folder
 * share): a limited link counts when the download is admitted, before its first byte; an unlimited one
 * once the last byte has been sent, so previews and aborted fetches do not count.
 */
export async function sendSharedFile(
  ctx: Pick<FilesContext, 'db' | 'store' | 'downloadBuffers' | 'downloads' | 'log' | 'clock'>,
  req: FastifyRequest,
  reply: FastifyReply,
  share: FileSharesTable,
  file: FilesTable,
  ticket: string | undefined,
): Promise<FastifyReply> {
  const chunks = await listChunks(ctx.db, file.id);
  if (share.max_downloads != null) {
    const now = dateOn(ctx.clock);
    if (await admitLimitedDownload(ctx.db, req, share, file, ticket, now)) {
      await noticeDownload(ctx.db, ctx.log, share, file, now);
    }
    return sendStoredFile(req, reply, ctx, file, chunks);
  }
  const count = isLinkPreview(req.headers['user-agent'])
    ? undefined
    : async () => {
        await incrementDownloadCount(ctx.db, share.id);
        await noticeDownload(ctx.db, ctx.log, share, file, dateOn(ctx.clock));
      };
  return sendStoredFile(req, reply, ctx, file, chunks, count);
}
