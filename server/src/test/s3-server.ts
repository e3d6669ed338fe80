/// <reference path="./s3rver.d.ts" />
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real S3-protocol server on loopback for tests and benches: `s3rver` (npm), in a child process.
 * Why s3rver: it installs from npm with no binary download, speaks enough of S3 for the store
 * (PutObject, multipart uploads, ranged GetObject, DeleteObject, ListObjectsV2), listens where told
 * (127.0.0.1) and keeps objects on disk, so memory stays flat (shared/notes/s3-and-tus.md).
 * Its own process because its continuation tokens need `--openssl-legacy-provider` (DES) and its
 * logger hooks process-wide exception handlers; it exits when its parent does (stdin closes).
 */
export type S3TestServer = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** FILES_STORE=s3 settings for a config (a fresh prefix keeps apps sharing the bucket apart). */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
};

const BUCKET = 'guildhall-test';

export async function startS3Server(): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-s3rver-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', fileURLToPath(import.meta.url), directory],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  child.stdout!.resume();
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket: BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    env: (prefix = `t${Math.random().toString(36).slice(2, 12)}`) => ({
      FILES_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: prefix,
    }),
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

// Run as a script: serve the bucket from the given directory until stdin closes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: S3rver } = await import('s3rver');
  const directory = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-s3rver-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const address = (await s3.run()) as { port: number };
  process.stdout.write(`LISTENING ${address.port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('close', () => process.exit(0));
}
