import { parseArgs } from 'node:util';
import { formatFileSize } from '@guildhall/common';
import { runBackup } from '../backup/backup.ts';
import { RestoreRefused, runRestore } from '../backup/restore.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { loadConfigured } from '../open-configured.ts';
import { createBlobStore } from '../platform/blob-store/index.ts';
import type { Output } from './admin-commands.ts';

export const BACKUP_USAGE = `  backup <dir>                                snapshot the database and copy every file's chunks into <dir>
                                              (new or empty), with a manifest of SHA-256s; safe while running
  restore <dir> [--force]                     restore a backup into the configured (empty) database and store,
                                              verifying every SHA-256; --force replaces a database in use`;

/** `npm run admin -- backup <dir>` (docs/operations.md, "Backups"). */
export async function runBackupCommand(db: Db, config: Config, argv: string[], io: Output): Promise<number> {
  const dir = oneDir(argv, {}, io);
  if (dir === null) return 2;
  const store = createBlobStore(config);
  const started = Date.now();
  try {
    const m = await runBackup(db, config.databaseUrl, store, dir, {
      onProgress: (p) => {
        if (p.done === p.total || p.done % 100 === 0)
          io.out(`copied ${p.done}/${p.total} blobs (${formatFileSize(p.bytes)})`);
      },
    });
    for (const x of m.missing) io.err(`${x.name} (${x.fileId}) chunk ${x.idx}: ${x.problem}`);
    const bytes = m.blobs.reduce((n, b) => n + b.size, 0);
    io.out(
      `Backed up the ${m.database.kind} database (${formatFileSize(m.database.size)}), ${m.files.length} file(s), ` +
        `${m.blobs.length} blob(s) (${formatFileSize(bytes)}) into ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        (m.missing.length === 0
          ? 'complete'
          : `${m.missing.length} chunk(s) MISSING (listed above and in manifest.json)`),
    );
    return m.missing.length === 0 ? 0 : 1;
  } catch (e) {
    io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await store.close();
  }
}

/**
 * `npm run admin -- restore <dir> [--force]`. Runs before the admin command line opens (and so
 * creates) the configured database: the target must be found empty.
 */
export async function runRestoreCommand(argv: string[], io: Output): Promise<number> {
  const dir = oneDir(argv, { force: { type: 'boolean' } }, io);
  if (dir === null) return 2;
  // Not openConfigured(): the target database is restored, not migrated and bootstrapped first.
  const config = loadConfigured((message) => io.err(message));
  if (!config) return 1;
  try {
    const r = await runRestore(config, dir, {
      force: argv.includes('--force'),
      onProgress: (p) => {
        if (p.done === p.total || p.done % 100 === 0)
          io.out(`restored ${p.done}/${p.total} chunks (${formatFileSize(p.bytes)})`);
      },
    });
    for (const p of r.problems) io.err(`${p.name} (${p.fileId}) chunk ${p.idx}: ${p.problem}`);
    io.out(
      `Restored ${r.databaseRows} database row(s) and ${r.files} file(s), ${r.chunks} chunk(s) (${formatFileSize(r.bytes)}) ` +
        `verified into ${config.databaseUrl.startsWith('postgres') ? 'the configured PostgreSQL database' : config.dataDir}: ` +
        (r.problems.length === 0
          ? 'every SHA-256 matches'
          : `${r.problems.length} chunk(s) NOT restored (listed above)`),
    );
    return r.problems.length === 0 ? 0 : 1;
  } catch (e) {
    io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return e instanceof RestoreRefused ? 2 : 1;
  }
}

function oneDir(
  argv: string[],
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'],
  io: Output,
): string | null {
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, options });
    if (positionals.length === 1) return positionals[0]!;
  } catch (e) {
    io.err(`Error: ${(e as Error).message}`);
  }
  io.err(`Usage:\n${BACKUP_USAGE}`);
  return null;
}
