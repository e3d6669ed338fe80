import { parseArgs } from 'node:util';
import { formatFileSize } from '@guildhall/common';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { migrateStorage, verifyStorage } from '../features/files/index.ts';
import { createBlobStore, type StoreKind } from '../platform/blob-store/index.ts';
import type { Output } from './admin-commands.ts';

export const STORAGE_USAGE = `  storage migrate --to local|s3|discord     copy every file to another store, verify each SHA-256 there,
                                              then switch it over (safe to stop and run again)
  storage verify                              re-read every stored chunk and report missing or corrupt ones`;

const KINDS: StoreKind[] = ['local', 's3', 'discord'];

/** `npm run admin -- storage …`: moves files between stores and checks them (docs/files.md, "Stores"). */
export async function runStorageCommand(db: Db, config: Config, argv: string[], io: Output): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    io.err(`Error: ${(e as Error).message}\n\nUsage:\n${STORAGE_USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (rest.length > 0 || (command !== 'migrate' && command !== 'verify')) {
    io.err(`Usage:\n${STORAGE_USAGE}`);
    return 2;
  }
  const store = createBlobStore(config);
  try {
    if (command === 'verify') {
      const report = await verifyStorage(db, store, {
        onProgress: (done, total) => {
          if (done === total || done % 50 === 0) io.out(`verified ${done}/${total} files`);
        },
      });
      for (const p of report.problems) {
        io.err(`${p.name} (${p.fileId})${p.idx === null ? '' : ` chunk ${p.idx}`}: ${p.problem}`);
      }
      io.out(
        `${report.files} files, ${report.chunks} chunks, ${formatFileSize(report.bytes)} read: ` +
          (report.problems.length === 0 ? 'all verified' : `${report.problems.length} problem(s)`),
      );
      return report.problems.length === 0 ? 0 : 1;
    }
    const to = parsed.values.to as StoreKind | undefined;
    if (!to || !KINDS.includes(to)) {
      io.err(`Error: --to must be one of ${KINDS.join(', ')}\n\nUsage:\n${STORAGE_USAGE}`);
      return 2;
    }
    if (!store.storeOf(to)) {
      io.err(`Error: the ${to} store is not configured; set its variables first (README, Configuration).`);
      return 1;
    }
    const started = Date.now();
    const report = await migrateStorage(db, store, to, {
      onProgress: (p) => {
        const mib = p.bytes / 1024 / 1024;
        const rate = mib / Math.max(0.001, (Date.now() - started) / 1000);
        io.out(
          `[${p.done}/${p.total}] ${p.file.name} — ${formatFileSize(p.bytes)} moved, ${rate.toFixed(1)} MiB/s`,
        );
      },
      onError: (name, e) => io.err(`${name}: not moved: ${e instanceof Error ? e.message : String(e)}`),
    });
    io.out(
      `Moved ${report.migrated} file(s) (${formatFileSize(report.bytes)}) to ${to}, ${report.skipped} already there, ${report.failed} failed.`,
    );
    if (config.blobStore.store !== to) io.out(`Set FILES_STORE=${to} so new uploads go there too.`);
    return report.failed === 0 ? 0 : 1;
  } finally {
    await store.close();
  }
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: { to: { type: 'string' } } });
}
