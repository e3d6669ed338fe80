import type { Notice } from '@guildhall/common';
import type { NoticesTable } from './tables.ts';

export function presentNotice(row: NoticesTable): Notice {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    link: row.link,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}
