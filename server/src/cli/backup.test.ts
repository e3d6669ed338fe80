import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runBackup } from '../backup/backup.ts';
import { blobPath, MANIFEST_FILE, type Manifest } from '../backup/manifest.ts';
import { RestoreRefused, runRestore } from '../backup/restore.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Db, openDb } from '../db/index.ts';
import { collectGarbage } from '../features/files/index.ts';
import { createFolder, multipart, uploadFile } from '../features/files/test-helpers.ts';
import { type BlobStore, createBlobStore } from '../platform/blob-store/index.ts';
import { bearer, createPgSchema, createTestApp, defaultTestDatabase, type TestContext } from '../test/app.ts';
import { filesStoreEnv, testFilesStore } from '../test/files-store.ts';
import { runRestoreCommand } from './backup-commands.ts';

const TTT = '/api/games/tic-tac-toe';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let ctx: TestContext;
let base: string;
let alice: { token: string; userId: string };
let bob: { token: string; userId: string };
let admin: { token: string; userId: string };
const cleanups: (() => Promise<void> | void)[] = [];

async function http(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The spec's two-step upload over real HTTP; resolves with the new file's id. */
async function uploadOverHttp(token: string, name: string, content: Buffer): Promise<string> {
  const body = multipart({}, { name, content });
  const res = await fetch(`${base}/upload`, {
    method: 'POST',
    headers: { ...body.headers, ...bearer(token) },
    body: new Uint8Array(body.payload),
  });
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  const { fileId, totalChunks } = (await res.json()) as { fileId: string; totalChunks: number };
  await http(token, 'POST', '/upload/complete', {
    fileId,
    fileName: name,
    fileSize: content.length,
    totalChunks,
  });
  return fileId;
}

/** A fresh target: a new DATA_DIR, and on PostgreSQL a new schema, with the test run's store settings. */
async function freshTarget(): Promise<Config> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-restore-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(await filesStoreEnv()) };
  if (defaultTestDatabase() === 'postgres') {
    const schema = await createPgSchema();
    cleanups.push(schema.drop);
    env.DATABASE_URL = schema.url;
  }
  return loadConfig(env);
}

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'backup');
}

/** Every complete file of a database, its bytes read back through its store and hashed. */
async function fileHashes(
  db: Db,
  store: BlobStore,
): Promise<Map<string, { stored: string | null; read: string }>> {
  const files = await db
    .selectFrom('files')
    .select(['id', 'sha256'])
    .where('type', '=', 'file')
    .where('status', '=', 'complete')
    .execute();
  const out = new Map<string, { stored: string | null; read: string }>();
  for (const f of files) {
    const chunks = await db
      .selectFrom('file_chunks')
      .selectAll()
      .where('file_id', '=', f.id)
      .orderBy('idx')
      .execute();
    const hash = createHash('sha256');
    for (const c of chunks) {
      for await (const b of await store.get(c.blob_id)) hash.update(b as Buffer);
    }
    out.set(f.id, { stored: f.sha256, read: hash.digest('hex') });
  }
  return out;
}

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  alice = await ctx.signIn();
  bob = await ctx.signIn();
  admin = await ctx.signIn({ access_level: 'admin' });
});

afterAll(async () => {
  await ctx.close();
  for (const c of cleanups.reverse()) await c();
});

describe('backup and restore', () => {
  test('a backup taken while uploads and a game run restores with every file, user, share and game', async () => {
    // Before the backup: files (one of two chunks), a folder, a share, and a game two moves in.
    const big = randomBytes(8 * 1024 * 1024 + 4096);
    const outer = await createFolder(ctx.app, alice.token, 'Guild');
    const inner = await createFolder(ctx.app, alice.token, 'Maps', outer.id);
    const before = [
      await uploadFile(ctx.app, alice.token, 'two-chunks.bin', big),
      await uploadFile(ctx.app, alice.token, 'notes.txt', Buffer.from('the guild notes'), {
        folderId: inner.id,
      }),
      await uploadFile(ctx.app, bob.token, 'doomed.bin', randomBytes(50_000)),
    ];
    const share = (
      await http(alice.token, 'POST', `/api/files/${before[1]!.id}/share`, { accessLevel: 'public' })
    ).data as { id: string };
    const game = ((await http(alice.token, 'POST', `${TTT}/join`)).game as { id: string }).id;
    await http(bob.token, 'POST', `${TTT}/join`);
    await http(alice.token, 'POST', `${TTT}/${game}/move`, { position: 0 });
    await http(bob.token, 'POST', `${TTT}/${game}/move`, { position: 1 });

    // During the backup: four uploads and the rest of the game, over HTTP. The first blob read also
    // deletes a file the snapshot holds and runs the collector, which must not remove its blob yet.
    const store = createBlobStore(ctx.config);
    const uploadedDuring = new Map<string, string>(); // file id → SHA-256 of what was sent
    let deletedDuring = false;
    let collectedDuring = -1;
    const upload = async (i: number) => {
      const content = randomBytes(200_000 + i);
      const id = await uploadOverHttp(i % 2 ? bob.token : alice.token, `during-${i}.bin`, content);
      uploadedDuring.set(id, sha(content));
    };
    // Started before the snapshot and still running while blobs are copied.
    const running: Promise<unknown>[] = [
      upload(0),
      upload(1),
      (async () => {
        for (const [i, p] of [2, 4, 3, 5, 7, 6, 8].entries()) {
          await http(i % 2 ? bob.token : alice.token, 'POST', `${TTT}/${game}/move`, { position: p });
        }
      })(),
    ];
    const watched: BlobStore = {
      kind: store.kind,
      put: (body, size) => store.put(body, size),
      delete: (id) => store.delete(id),
      get: async (id, range, check) => {
        if (!deletedDuring) {
          deletedDuring = true;
          running.push(upload(2), upload(3));
          // Deleted (to the trash) and purged by an admin: its blob is queued for the collector.
          await http(bob.token, 'DELETE', `/api/files/${before[2]!.id}`);
          await http(admin.token, 'DELETE', `/api/trash/${before[2]!.id}`);
          collectedDuring = await collectGarbage(ctx.db, store);
        }
        return store.get(id, range, check);
      },
    };
    const dir = tempDir('guildhall-backup-');
    const manifest = await runBackup(ctx.db, ctx.config.databaseUrl, watched, dir);
    await Promise.all(running);
    cleanups.push(() => store.close());
    expect(collectedDuring).toBe(0);
    expect(await collectGarbage(ctx.db, store)).toBeGreaterThan(0); // the hold ended with the backup
    expect(manifest.missing).toEqual([]);
    expect(manifest.files.map((f) => f.id)).toEqual(expect.arrayContaining(before.map((f) => f.id)));
    expect(manifest.files.find((f) => f.id === before[0]!.id)?.chunks).toHaveLength(2);
    for (const b of manifest.blobs) expect(sha(fs.readFileSync(path.join(dir, b.path)))).toBe(b.sha256);

    const target = await freshTarget();
    const report = await runRestore(target, dir);
    expect(report.problems).toEqual([]);
    const restored = openDb(target.databaseUrl);
    const restoredStore = createBlobStore(target);
    try {
      // Every complete file reads back through the restored store with the SHA-256 it was stored with.
      const hashes = await fileHashes(restored, restoredStore);
      for (const f of before) expect(hashes.has(f.id), f.name).toBe(true);
      // An upload running during the backup is either in it whole or not at all.
      for (const [id, expected] of uploadedDuring)
        if (hashes.has(id)) expect(hashes.get(id)?.read).toBe(expected);
      for (const [id, h] of hashes) expect(h.read, id).toBe(h.stored);
      expect(hashes.get(before[0]!.id)?.read).toBe(sha(big));
      expect(hashes.get(before[1]!.id)?.read).toBe(sha(Buffer.from('the guild notes')));
      expect(hashes.get(before[2]!.id)?.read).toBe(hashes.get(before[2]!.id)?.stored); // deleted after the snapshot
      const complete = manifest.files.filter((f) => f.status === 'complete').map((f) => f.id);
      expect([...hashes.keys()].sort()).toEqual(complete.sort());

      const users = await restored.selectFrom('users').select('discord_id').execute();
      expect(users.map((u) => u.discord_id)).toEqual(expect.arrayContaining([alice.userId, bob.userId]));
      const folders = await restored
        .selectFrom('files')
        .select(['id', 'parent_id'])
        .where('type', '=', 'folder')
        .execute();
      expect(folders).toEqual(
        expect.arrayContaining([
          { id: outer.id, parent_id: null },
          { id: inner.id, parent_id: outer.id },
        ]),
      );
      const shares = await restored.selectFrom('file_shares').select('id').execute();
      expect(shares.map((s) => s.id)).toContain(share.id);
      const g = await restored
        .selectFrom('tictactoe_games')
        .selectAll()
        .where('id', '=', game)
        .executeTakeFirstOrThrow();
      expect(g.board.slice(0, 2)).toBe('XO'); // at least the two moves made before the backup
      expect(await restored.selectFrom('blob_garbage').selectAll().execute()).toEqual([]);
      // Chunks live where the target store put them: a Discord thread per file there, none elsewhere.
      const threads = await restored
        .selectFrom('files')
        .select('thread_id')
        .where('type', '=', 'file')
        .where('status', '=', 'complete')
        .execute();
      for (const t of threads) expect(t.thread_id != null).toBe(testFilesStore() === 'discord');
    } finally {
      await restoredStore.close();
      await restored.destroy();
    }

    // The target now holds data: a second restore refuses it.
    await expect(runRestore(target, dir)).rejects.toBeInstanceOf(RestoreRefused);
    // --force replaces it.
    const again = await runRestore(target, dir, { force: true });
    expect(again).toMatchObject({
      problems: [],
      files: manifest.files.length,
      databaseRows: report.databaseRows,
    });
  });

  test('restore reports a damaged blob and does not store it', async () => {
    const content = randomBytes(30_000);
    const file = await uploadFile(ctx.app, alice.token, 'to-damage.bin', content);
    const dir = tempDir('guildhall-backup-');
    const store = createBlobStore(ctx.config);
    const manifest: Manifest = await runBackup(ctx.db, ctx.config.databaseUrl, store, dir);
    await store.close();
    const blob = path.join(dir, blobPath(sha(content)));
    const bytes = fs.readFileSync(blob);
    bytes[100] = (bytes[100] ?? 0) ^ 0xff;
    fs.writeFileSync(blob, bytes);
    expect(JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')).blobs).toEqual(manifest.blobs);

    const target = await freshTarget();
    const report = await runRestore(target, dir);
    expect(report.problems).toEqual([
      expect.objectContaining({
        fileId: file.id,
        name: 'to-damage.bin',
        idx: 0,
        problem: expect.stringMatching(/damaged/),
      }),
    ]);
    expect(report.chunks).toBe(manifest.files.reduce((n, f) => n + f.chunks.length, 0) - 1);
  });

  test.runIf(process.env.TEST_DATABASE_URL)(
    'a backup restores into the other database (SQLite ↔ PostgreSQL)',
    async () => {
      const content = randomBytes(40_000);
      const file = await uploadFile(ctx.app, bob.token, 'moving.bin', content);
      const dir = tempDir('guildhall-backup-');
      const store = createBlobStore(ctx.config);
      await runBackup(ctx.db, ctx.config.databaseUrl, store, dir);
      await store.close();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-restore-'));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = { DATA_DIR: dataDir, ...(await filesStoreEnv()) };
      if (defaultTestDatabase() === 'sqlite') {
        const schema = await createPgSchema();
        cleanups.push(schema.drop);
        env.DATABASE_URL = schema.url;
      }
      const target = loadConfig(env);
      expect(target.databaseUrl.startsWith('postgres')).toBe(defaultTestDatabase() === 'sqlite');
      expect((await runRestore(target, dir)).problems).toEqual([]);
      const restored = openDb(target.databaseUrl);
      const restoredStore = createBlobStore(target);
      try {
        expect((await fileHashes(restored, restoredStore)).get(file.id)?.read).toBe(sha(content));
        const users = await restored.selectFrom('users').select('discord_id').execute();
        expect(users.map((u) => u.discord_id)).toEqual(expect.arrayContaining([alice.userId, bob.userId]));
      } finally {
        await restoredStore.close();
        await restored.destroy();
      }
    },
  );

  test('the command line refuses a directory that is not a backup', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const code = await runRestoreCommand([fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-empty-'))], io);
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/no manifest\.json/);
  });
});
