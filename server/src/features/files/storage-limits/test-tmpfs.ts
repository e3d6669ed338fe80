import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp } from '../../../test/app.ts';

/** Why a tmpfs cannot be mounted here, or null when it can (Linux, as root: CI). */
export const tmpfsProblem = (() => {
  if (process.platform !== 'linux') return 'tmpfs needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  return null;
})();

/**
 * An app whose blob directory is a fresh tmpfs of `sizeMiB`: a disk of its own, whose free space no other
 * suite moves.
 */
export async function appOnTmpfs(sizeMiB: number, env: Record<string, string>) {
  const ctx = await createTestApp({ FILES_STORE: 'local', UPLOADS_PER_USER: '10', ...env });
  const blobDir = path.join(ctx.dataDir, 'blobs');
  // The store made its directories at start; the mount hides them, so they are made again on it.
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', blobDir], { stdio: 'pipe' });
  fs.mkdirSync(path.join(blobDir, 'tmp'), { recursive: true });
  return {
    ctx,
    blobDir,
    async close() {
      await ctx.close().catch(() => {});
      execFileSync('umount', ['-l', blobDir]);
    },
  };
}
