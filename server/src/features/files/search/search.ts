import { type FileSearchHit, SEARCH_MAX_RESULTS } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { nameKey } from '../names.ts';
import { presentItem } from '../present.ts';
import { listItemsByNameKey } from '../repo.ts';
import { folderPaths } from './paths.ts';

/**
 * Listed files and folders in any folder whose name contains `query` (case-insensitive, NFC), folders
 * first then by name, each with the path of the folder it is in; at most SEARCH_MAX_RESULTS.
 */
export async function findItemsByName(
  db: Db,
  query: string,
): Promise<{ hits: FileSearchHit[]; truncated: boolean }> {
  const rows = await listItemsByNameKey(db, nameKey(query), SEARCH_MAX_RESULTS + 1);
  const paths = await folderPaths(db);
  const hits = rows.slice(0, SEARCH_MAX_RESULTS).map((r) => ({
    ...presentItem(r),
    folderPath: r.parent_id ? (paths.get(r.parent_id) ?? []) : [],
  }));
  return { hits, truncated: rows.length > SEARCH_MAX_RESULTS };
}
