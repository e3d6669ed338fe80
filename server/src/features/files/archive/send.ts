import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../../platform/errors.ts';
import { streamRange } from '../../../platform/transfer/stored-bytes.ts';
import type { FilesContext } from '../context.ts';
import { startDownload } from '../download-limits.ts';
import { listChunks } from '../repo.ts';
import { archiveEntries } from './entries.ts';
import { zipStream } from './zip.ts';

/** ZIPs one member (or one address, signed out) may be downloading at once (each holds a store reader and a socket). */
const ARCHIVES_PER_MEMBER = 2;

/**
 * Streams a ZIP of the items. `admit` runs once the ZIP has its slots, just before the first byte (a
 * folder share counts its download there, issue 45); what it throws is the answer.
 */
export type ArchiveSender = (
  req: FastifyRequest,
  reply: FastifyReply,
  ids: string[],
  memberKey: string,
  name: string,
  admit?: () => Promise<void>,
) => Promise<FastifyReply>;

/** The one ZIP sender of the files feature: members' ZIPs and folder shares' share its per-caller slots. */
export function createArchiveSender(ctx: FilesContext): ArchiveSender {
  const { db } = ctx;
  const open = new Map<string, number>();
  return async (req, reply, ids, memberKey, name, admit) => {
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
    if (admit) await admit();
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
  };
}
