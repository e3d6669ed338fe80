import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import { noteFileShared } from '../../discord-notes/index.ts';
import { findItem } from '../repo.ts';
import type { FileSharesTable } from '../tables.ts';

/**
 * The channel note of a new share (issue 44), when the admin switched it on: only a file's public link
 * without a password (a users-only or password share is for the people it was given to). A failure to
 * queue it is logged and never fails the share.
 */
export async function noteNewShare(db: Db, log: FastifyBaseLogger, share: FileSharesTable): Promise<void> {
  if (share.access_level !== 'public' || share.password_hash || !share.created_by) return;
  try {
    const file = await findItem(db, share.file_id);
    if (file?.type !== 'file') return;
    await noteFileShared(db, {
      sharerId: share.created_by,
      name: file.name,
      size: Number(file.size),
      path: `/shared/${share.token}`,
      now: Date.parse(share.created_at),
    });
  } catch (err) {
    log.warn({ err, shareId: share.id }, 'files: the channel note of a share could not be queued');
  }
}
