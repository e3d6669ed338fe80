import type { DbKind } from './database.ts';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'guildhall-backup';

/** A chunk of a file: its bytes are the blob with this SHA-256 in the backup. */
export type ManifestChunk = { idx: number; sha256: string; size: number };

export type ManifestFile = {
  id: string;
  name: string;
  size: number;
  /** The whole file's SHA-256 (null for an upload still in progress at the snapshot). */
  sha256: string | null;
  status: string;
  chunks: ManifestChunk[];
};

/** A stored chunk's bytes, once per distinct content, at `path` inside the backup dir. */
export type ManifestBlob = { sha256: string; size: number; path: string };

/** A chunk the snapshot references whose bytes the backup could not capture. */
export type ManifestMissing = { fileId: string; name: string; idx: number; problem: string };

/**
 * `manifest.json`, written last: a backup dir without it is incomplete. It lists the database file
 * and every file and blob with SHA-256 and size, so restore (or anyone with sha256sum) can verify it.
 */
export type Manifest = {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  startedAt: string;
  finishedAt: string;
  database: { kind: DbKind; file: string; sha256: string; size: number; migrations: string[] };
  files: ManifestFile[];
  blobs: ManifestBlob[];
  missing: ManifestMissing[];
};

export function blobPath(sha256: string): string {
  return `blobs/${sha256.slice(0, 2)}/${sha256}`;
}
