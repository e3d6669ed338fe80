import { NOTICE_TEXTS } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import { recordNotice } from '../../notices/index.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';

/**
 * Tells the sharer of a download that counted, when they asked to be told (issue 45). A notice that
 * cannot be recorded is logged, never a reason to fail the download.
 */
export async function noticeDownload(
  db: Db,
  log: FastifyBaseLogger,
  share: FileSharesTable,
  item: Pick<FilesTable, 'id' | 'name' | 'type' | 'parent_id'>,
  now: Date,
): Promise<void> {
  if (Number(share.notify_downloads ?? 0) !== 1 || !share.created_by) return;
  const folder = item.type === 'folder' ? item.id : item.parent_id;
  await recordNotice(
    db,
    {
      userId: share.created_by,
      kind: 'share_download',
      text: NOTICE_TEXTS.shareDownloaded(item.name),
      link: folder ? `/filesystem?folder=${encodeURIComponent(folder)}` : '/filesystem',
    },
    now,
  ).catch((err: unknown) => log.error({ err, shareId: share.id }, 'a download notice could not be recorded'));
}
