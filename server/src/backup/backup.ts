import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/index.ts';
import type { BlobStore } from '../platform/blob-store/index.ts';
import { holdGarbage, releaseGarbage } from '../platform/garbage-hold.ts';
import { readChunk } from '../platform/transfer/chunk-reader.ts';
import { type SnapshotChunk, snapshotDatabase } from './database.ts';
import { hashFile, writeHashed } from './hashing.ts';
import {
  blobPath,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  type Manifest,
  type ManifestBlob,
  type ManifestFile,
  type ManifestMissing,
} from './manifest.ts';

/** How long one renewal of the garbage hold lasts; renewed every HOLD_RENEW_MS while copying. */
export const HOLD_LEASE_MS = 10 * 60_000;
const HOLD_RENEW_MS = 60_000;
/** Blobs read at once (remote stores gain from a few requests in flight). */
const PARALLEL_READS = 4;

export type BackupProgress = { done: number; total: number; bytes: number };
export type BackupOptions = { onProgress?: (p: BackupProgress) => void };

/**
 * Backs up the database and the blobs it references into `dir` (absent or empty): holds the garbage
 * collector, snapshots the database, copies every referenced chunk through the blob store (checked
 * against its recorded checksum as it is read, kept once per content by SHA-256), and writes the
 * manifest last.
 */
export async function runBackup(
  db: Db,
  databaseUrl: string,
  store: BlobStore,
  dir: string,
  opts: BackupOptions = {},
): Promise<Manifest> {
  const root = path.resolve(dir);
  if (fs.existsSync(root) && fs.readdirSync(root).length > 0) {
    throw new Error(`${root} is not empty; back up into a new directory`);
  }
  fs.mkdirSync(root, { recursive: true });
  const startedAt = new Date();
  let holdUntil = new Date(Date.now() + HOLD_LEASE_MS);
  // The hold is in force before the snapshot, so no blob the snapshot references can be collected.
  await holdGarbage(db, holdUntil);
  const renew = setInterval(() => {
    holdUntil = new Date(Date.now() + HOLD_LEASE_MS);
    holdGarbage(db, holdUntil).catch(() => {
      // The next renewal tries again; the lease still has minutes to run.
    });
  }, HOLD_RENEW_MS);
  renew.unref();
  try {
    const snapshot = await snapshotDatabase(db, databaseUrl, root);
    const { blobs, missing, shaOf } = await copyBlobs(store, root, snapshot.chunks, opts);
    const dbFile = await hashFile(path.join(root, snapshot.file));
    const byFile = new Map<string, ManifestFile>(
      snapshot.files.map((f) => [f.id, { ...f, chunks: [] as ManifestFile['chunks'] }]),
    );
    for (const c of snapshot.chunks) {
      const sha256 = shaOf.get(c);
      // A chunk that could not be copied is listed in `missing` (by the chunk's SHA-256 when it has one).
      byFile.get(c.file_id)?.chunks.push({ idx: c.idx, sha256: sha256 ?? c.sha256 ?? '', size: c.size });
    }
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      version: 1,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      database: { kind: snapshot.kind, file: snapshot.file, ...dbFile, migrations: snapshot.migrations },
      files: [...byFile.values()],
      blobs,
      missing,
    };
    const tmp = path.join(root, `${MANIFEST_FILE}.tmp`);
    fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
    fs.renameSync(tmp, path.join(root, MANIFEST_FILE));
    return manifest;
  } finally {
    clearInterval(renew);
    await releaseGarbage(db, holdUntil);
  }
}

async function copyBlobs(
  store: BlobStore,
  root: string,
  chunks: SnapshotChunk[],
  opts: BackupOptions,
): Promise<{ blobs: ManifestBlob[]; missing: ManifestMissing[]; shaOf: Map<SnapshotChunk, string> }> {
  // Each chunk is read once, checked by the store against its recorded checksum and hashed as it is
  // written; identical contents are kept once (by SHA-256), as the manifest addresses blobs by content.
  const blobs = new Map<string, ManifestBlob>();
  const missing: ManifestMissing[] = [];
  const shaOf = new Map<SnapshotChunk, string>();
  const staging = path.join(root, 'blobs', 'incoming');
  fs.mkdirSync(staging, { recursive: true });
  let done = 0;
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const c = chunks[next++]!;
      const tmp = path.join(staging, `${c.file_id}.${c.idx}`);
      let problem: string | null = null;
      try {
        // The transfer engine's verified reader, as downloads use it: the snapshot row is the check the
        // store applies as it reads (size, CRC32C or older SHA-256).
        const got = await writeHashed(await readChunk(store, c), tmp);
        if ((c.sha256 && got.sha256 !== c.sha256) || got.size !== c.size) {
          problem = `corrupt in the store (SHA-256 ${got.sha256.slice(0, 12)}…, ${got.size} bytes)`;
        } else {
          const rel = blobPath(got.sha256);
          if (blobs.has(got.sha256)) fs.rmSync(tmp);
          else {
            fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
            fs.renameSync(tmp, path.join(root, rel));
            blobs.set(got.sha256, { sha256: got.sha256, size: got.size, path: rel });
            bytes += c.size;
          }
          shaOf.set(c, got.sha256);
        }
      } catch (e) {
        problem = `not readable from the store: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (problem) {
        fs.rmSync(tmp, { force: true });
        missing.push({ fileId: c.file_id, name: c.name, idx: c.idx, problem });
      }
      done += 1;
      opts.onProgress?.({ done, total: chunks.length, bytes });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, chunks.length) }, worker));
  fs.rmSync(staging, { recursive: true, force: true });
  return { blobs: [...blobs.values()].sort((a, b) => a.sha256.localeCompare(b.sha256)), missing, shaOf };
}
