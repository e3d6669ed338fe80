import { createHash } from 'node:crypto';
import fs, { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createBlobStore } from '../platform/blob-store/index.ts';
import { hashFile } from './hashing.ts';
import { MANIFEST_FILE, MANIFEST_FORMAT, type Manifest, type ManifestMissing } from './manifest.ts';
import { clearTargetDatabase, restoreDatabase, targetDatabaseInUse } from './restore-database.ts';

export type RestoreProblem = ManifestMissing;

const PARALLEL_FILES = 4;

export type RestoreReport = {
  databaseRows: number;
  files: number;
  chunks: number;
  bytes: number;
  /** Chunks not restored: missing from the backup, or whose bytes no longer match the manifest. */
  problems: RestoreProblem[];
};

export type RestoreOptions = {
  force?: boolean;
  onProgress?: (p: { done: number; total: number; bytes: number }) => void;
};

export class RestoreRefused extends Error {}

/** Reads and checks `dir/manifest.json`. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(file))
    throw new RestoreRefused(`${dir} has no ${MANIFEST_FILE}: not a backup, or an unfinished one`);
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  if (m.format !== MANIFEST_FORMAT || m.version !== 1)
    throw new RestoreRefused(`${file} is not a Guildhall backup manifest`);
  return m;
}

/**
 * Restores a backup into the configured database and blob store (a fresh DATA_DIR, or wherever
 * DATABASE_URL and FILES_STORE point): refuses a target that holds data unless `force`, checks the
 * database file's SHA-256, restores it, then writes every chunk back through the store (new blob ids;
 * the chunk rows are pointed at them), each one verified against the manifest as it is written.
 */
export async function runRestore(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'blobStore'>,
  dir: string,
  opts: RestoreOptions = {},
): Promise<RestoreReport> {
  const root = path.resolve(dir);
  const manifest = readManifest(root);
  const dbFile = path.join(root, manifest.database.file);
  const got = await hashFile(dbFile);
  if (got.sha256 !== manifest.database.sha256 || got.size !== manifest.database.size) {
    throw new RestoreRefused(`${dbFile} does not match the manifest's SHA-256: the backup is damaged`);
  }
  const localBlobs = path.join(config.dataDir, 'blobs');
  const blobsInUse =
    config.blobStore.store === 'local' && fs.existsSync(localBlobs) && fs.readdirSync(localBlobs).length > 0;
  const dbInUse = await targetDatabaseInUse(config.databaseUrl);
  if ((dbInUse || blobsInUse) && !opts.force) {
    throw new RestoreRefused(
      `The target is not empty (${dbInUse ? 'the database holds data' : `${localBlobs} holds blobs`}); ` +
        'restore into a fresh DATA_DIR / database, or pass --force to replace the database',
    );
  }
  if (dbInUse) await clearTargetDatabase(config.databaseUrl);

  const { db, rows } = await restoreDatabase(manifest.database.kind, dbFile, config.databaseUrl);
  const store = createBlobStore(config);
  const problems: RestoreProblem[] = [...manifest.missing];
  const paths = new Map(manifest.blobs.map((b) => [b.sha256, b.path]));
  const total = manifest.files.reduce((n, f) => n + f.chunks.length, 0);
  let done = 0;
  let bytes = 0;
  try {
    // Blobs queued for deletion or copied by a migration belong to the old store, not to this one.
    await db.deleteFrom('blob_garbage').execute();
    await db.deleteFrom('storage_copies').execute();
    // A Discord thread of the old store is not this store's: deleting a file would queue the old thread.
    await db.updateTable('files').set({ thread_id: null }).execute();
    const restoreFile = async (file: Manifest['files'][number]) => {
      const scoped = store.forFile(file.id, async (group) => {
        await db.updateTable('files').set({ thread_id: group }).where('id', '=', file.id).execute();
      });
      for (const chunk of file.chunks) {
        const rel = paths.get(chunk.sha256);
        if (!rel) continue; // listed in manifest.missing
        try {
          const id = await scoped.put(verified(path.join(root, rel), chunk.sha256, chunk.size), chunk.size);
          await db
            .updateTable('file_chunks')
            .set({ blob_id: id })
            .where('file_id', '=', file.id)
            .where('idx', '=', chunk.idx)
            .execute();
          bytes += chunk.size;
        } catch (e) {
          problems.push({
            fileId: file.id,
            name: file.name,
            idx: chunk.idx,
            problem: e instanceof Error ? e.message : String(e),
          });
        }
        done += 1;
        opts.onProgress?.({ done, total, bytes });
      }
    };
    // A few files at once (remote stores wait on round trips); each file's chunks in order.
    let next = 0;
    const worker = async () => {
      while (next < manifest.files.length) await restoreFile(manifest.files[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_FILES, manifest.files.length) }, worker));
  } finally {
    await store.close();
    await db.destroy();
  }
  return {
    databaseRows: rows,
    files: manifest.files.length,
    chunks: total - problems.length,
    bytes,
    problems,
  };
}

/** The backup's blob file, failing (so the store keeps nothing) if it does not match the manifest. */
async function* verified(file: string, sha256: string, size: number): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let n = 0;
  // A blob file missing from the backup fails here with ENOENT, which the report shows.
  const stream = createReadStream(file) as AsyncIterable<Buffer>;
  for await (const c of stream) {
    hash.update(c);
    n += c.length;
    yield c;
  }
  const got = hash.digest('hex');
  if (got !== sha256 || n !== size) {
    throw new Error(
      `backup blob ${path.basename(file).slice(0, 12)}… is damaged (SHA-256 or size differs from the manifest)`,
    );
  }
}
