import { ARCHIVE_MAX_FILES } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import { nameKey, numberedName } from '../names.ts';
import { requireItem } from '../service.ts';
import { listCompleteChildren } from './repo.ts';

/** One entry of an archive: a file (its id and size) or an empty folder, at a path inside the ZIP. */
export type ArchiveEntry =
  | { kind: 'file'; path: string; fileId: string; size: number; mtime: Date }
  | { kind: 'folder'; path: string; mtime: Date };

const BATCH = 500;

/**
 * The entries of a ZIP of these items: each file at its name, each folder with everything listed inside
 * it at any depth (paths `folder/sub/file`), folders with nothing inside as empty directories. Two
 * selected items with the same name (from different folders) get numbered names, as copies do.
 */
export async function archiveEntries(db: Db, ids: string[]): Promise<ArchiveEntry[]> {
  const roots = await Promise.all([...new Set(ids)].map((id) => requireItem(db, id)));
  const entries: ArchiveEntry[] = [];
  const usedTop = new Set<string>();
  let files = 0;
  const add = (e: ArchiveEntry) => {
    if (e.kind === 'file' && ++files > ARCHIVE_MAX_FILES) {
      throw fail('TOO_MANY_FILES', `An archive can hold at most ${ARCHIVE_MAX_FILES} files; pick fewer`);
    }
    entries.push(e);
  };
  for (const root of roots) {
    let top = root.name;
    for (let n = 1; usedTop.has(nameKey(top)); n++) top = numberedName(root.name, n);
    usedTop.add(nameKey(top));
    const mtime = new Date(root.updated_at);
    if (root.type === 'file') {
      add({ kind: 'file', path: top, fileId: root.id, size: Number(root.size), mtime });
      continue;
    }
    // Level by level below the folder (depth is bounded by MAX_FOLDER_DEPTH).
    let level: { id: string; path: string }[] = [{ id: root.id, path: top }];
    const childless = new Set([root.id]);
    const pathOf = new Map([[root.id, top]]);
    while (level.length > 0) {
      const next: { id: string; path: string }[] = [];
      for (let i = 0; i < level.length; i += BATCH) {
        const rows = await listCompleteChildren(
          db,
          level.slice(i, i + BATCH).map((l) => l.id),
        );
        for (const r of rows) {
          const path = `${pathOf.get(r.parent_id!)}/${r.name}`;
          childless.delete(r.parent_id!);
          if (r.type === 'folder') {
            pathOf.set(r.id, path);
            childless.add(r.id);
            next.push({ id: r.id, path });
          } else {
            add({ kind: 'file', path, fileId: r.id, size: Number(r.size), mtime: new Date(r.updated_at) });
          }
        }
      }
      level = next;
    }
    for (const id of childless) add({ kind: 'folder', path: pathOf.get(id)!, mtime });
  }
  return entries;
}
