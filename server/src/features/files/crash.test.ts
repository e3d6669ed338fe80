import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Config, loadConfig } from '../../config.ts';
import { openDb } from '../../db/index.ts';
import { createBlobStore } from '../../platform/blob-store/index.ts';
import { eventually } from '../../test/eventually.ts';
import { filesStoreEnv, storedBlobIds, temporaryBlobs } from '../../test/files-store.ts';
import { runMaintenance } from './maintenance.ts';
import { multipart } from './test-helpers.ts';

const MAIN = path.resolve(import.meta.dirname, '../../main.ts');
const ACCESS_CODE = 'crash-test-access-code';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-crash-'));
const children: ChildProcess[] = [];
// The store TEST_FILES_STORE names (local disk by default), shared by both server processes.
let storeEnv: Record<string, string> = {};
let config: Config;
beforeAll(async () => {
  storeEnv = await filesStoreEnv();
  config = loadConfig({ DATA_DIR: dataDir, ...storeEnv });
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** `node server/src/main.ts` on the shared data dir, as production runs it. */
async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ACCESS_CODE,
      LOG_LEVEL: 'silent',
      ...storeEnv,
    },
    stdio: 'ignore',
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (!(await fetch(`${base}/api/config`)).ok) throw new Error('server did not start');
    },
    { interval: 50 },
  );
  return { child, base };
}

const committedBlobs = () => storedBlobIds(config);

test('a server killed mid-upload leaves nothing listed, and the sweep removes every stored chunk', async () => {
  const { child, base } = await startServer();
  const signIn = await fetch(`${base}/api/auth/access-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: ACCESS_CODE }),
  });
  const { token } = (await signIn.json()) as { token: string };

  // Half of a 40 MiB upload, then wait until at least one 8 MiB chunk is stored, then kill -9.
  const body = multipart({}, { name: 'crash.bin', content: Buffer.alloc(0) });
  const head = body.payload.subarray(0, body.payload.indexOf('\r\n\r\n') + 4);
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${head.length + 40 * 1024 * 1024 + 100}\r\n\r\n`,
  );
  socket.write(head);
  for (let i = 0; i < 20; i++) socket.write(randomBytes(1024 * 1024));
  // Read the live database (SQLite WAL allows a second reader) until a whole chunk is recorded.
  const db = openDb(`sqlite:${path.join(dataDir, 'guildhall.db')}`);
  const recordedChunks = async () => (await db.selectFrom('file_chunks').select('blob_id').execute()).length;
  // Generous: a loaded CI machine may take a while to store the first chunk in a remote store.
  await expect.poll(recordedChunks, { interval: 50 }).toBeGreaterThan(0);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  socket.destroy();

  // What the crash left: an unlisted 'uploading' row with stored chunks.
  const store = createBlobStore(config);
  try {
    const rows = await db.selectFrom('files').select(['id', 'status']).execute();
    expect(rows).toEqual([{ id: expect.any(String), status: 'uploading' }]);
    expect(await recordedChunks()).toBeGreaterThan(0);
    expect((await committedBlobs()).length).toBeGreaterThan(0);

    // Right after a restart the lease may still belong to a live process elsewhere: nothing is touched.
    await runMaintenance(db, store, new Date(), { orphans: true });
    expect(await db.selectFrom('files').select('id').execute()).toHaveLength(1);

    // Once the lease has run out (and stray blobs are old enough), everything goes.
    await runMaintenance(db, store, new Date(Date.now() + 2 * 60 * 60_000), { orphans: true });
    expect(await db.selectFrom('files').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('file_chunks').select('blob_id').execute()).toEqual([]);
    expect(await db.selectFrom('blob_garbage').select('blob_id').execute()).toEqual([]);
    expect(await committedBlobs()).toEqual([]);
    expect(temporaryBlobs(config)).toEqual([]);
  } finally {
    await db.destroy();
    await store.close();
  }

  // The restarted server starts cleanly and lists nothing.
  const again = await startServer();
  const signIn2 = await fetch(`${again.base}/api/auth/access-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: ACCESS_CODE }),
  });
  const list = await fetch(`${again.base}/api/files`, {
    headers: { authorization: `Bearer ${((await signIn2.json()) as { token: string }).token}` },
  });
  expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
  again.child.kill('SIGTERM');
});
