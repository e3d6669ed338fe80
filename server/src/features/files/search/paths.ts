import { type Breadcrumb, MAX_FOLDER_DEPTH } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { listAllFolders } from '../repo.ts';

/**
 * Every folder's path, from the root's child down to the folder itself (what breadcrumbs show), built
 * from one query of all folders: a search or the trash list names many folders at once.
 */
export async function folderPaths(db: Db): Promise<Map<string, Breadcrumb[]>> {
  const rows = await listAllFolders(db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<string, Breadcrumb[]>();
  const pathOf = (id: string): Breadcrumb[] => {
    const known = paths.get(id);
    if (known) return known;
    const chain: Breadcrumb[] = [];
    let current = byId.get(id);
    // Bounded by the nesting limit, so a (corrupt) cycle cannot loop forever.
    while (current && chain.length <= MAX_FOLDER_DEPTH) {
      chain.unshift({ id: current.id, name: current.name });
      current = current.parent_id ? byId.get(current.parent_id) : undefined;
    }
    paths.set(id, chain);
    return chain;
  };
  for (const r of rows) pathOf(r.id);
  return paths;
}
