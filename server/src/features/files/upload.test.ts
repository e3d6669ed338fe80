import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { CHUNK_SIZE_BYTES, type FileItem } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crc32cHex, crc32cOf, LocalBlobStore } from '../../platform/blob-store/index.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { storedBlobIds, temporaryBlobs } from '../../test/files-store.ts';
import { runMaintenance } from './maintenance.ts';
import { createFolder, listFolder, multipart, startUpload, uploadFile } from './test-helpers.ts';

const LIMIT = 24 * 1024 * 1024;
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestApp({ MAX_UPLOAD_BYTES: String(LIMIT) });
  token = (await ctx.signIn()).token;
});
afterAll(() => ctx.close());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const crc32 = (b: Buffer) => crc32cHex(crc32cOf(b));
const complete = (body: Record<string, unknown>, as = token) =>
  ctx.app.inject({ method: 'POST', url: '/upload/complete', headers: bearer(as), payload: body });
// On whichever store TEST_FILES_STORE names (local disk, S3, Discord): committed and half-written blobs.
const storedBlobs = async () => [...(await storedBlobIds(ctx.config)), ...temporaryBlobs(ctx.config)];
const allRows = async () => (await ctx.db.selectFrom('files').select('id').execute()).length;
const uploadingRows = () =>
  ctx.db.selectFrom('files').select('id').where('status', '=', 'uploading').execute();

/** Waits until `check` holds (what happens in the background after an answer: clean-ups, aborts). */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  await eventually(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { interval: 25 },
  );
}

describe('the upload protocol (POST /upload → status → complete)', () => {
  test('a file is stored in 8 MiB chunks with CRC32Cs, hashed whole with SHA-256 and listed only once completed', async () => {
    const content = randomBytes(CHUNK_SIZE_BYTES * 2 + 12345);
    const start = await startUpload(ctx.app, token, content, { name: 'big.bin' });
    expect(start.statusCode).toBe(200);
    const { fileId, totalChunks } = start.json();
    expect(totalChunks).toBe(3);
    expect((await listFolder(ctx.app, token)).some((i) => i.id === fileId)).toBe(false);

    const status = await ctx.app.inject({ url: `/upload/status/${fileId}`, headers: bearer(token) });
    expect(status.json()).toEqual({ success: true, completed: true, progress: 1 });

    const chunks = await ctx.db
      .selectFrom('file_chunks')
      .selectAll()
      .where('file_id', '=', fileId)
      .orderBy('idx')
      .execute();
    expect(chunks.map((c) => c.size)).toEqual([CHUNK_SIZE_BYTES, CHUNK_SIZE_BYTES, 12345]);
    expect(chunks[1]!.crc32c).toBe(crc32(content.subarray(CHUNK_SIZE_BYTES, 2 * CHUNK_SIZE_BYTES)));
    expect(chunks.map((c) => c.sha256)).toEqual([null, null, null]); // one SHA-256 pass: the file's

    const done = await complete({ fileId, fileName: 'big.bin', fileSize: content.length, totalChunks });
    expect(done.statusCode).toBe(200);
    const item: FileItem = done.json().data;
    expect(item).toMatchObject({ name: 'big.bin', size: content.length, chunks: 3, sha256: sha256(content) });
    expect((await listFolder(ctx.app, token)).some((i) => i.id === fileId)).toBe(true);

    const download = await ctx.app.inject({ url: `/download/${fileId}`, headers: bearer(token) });
    expect(Buffer.compare(download.rawPayload, content)).toBe(0);
  });

  test('concurrent multi-chunk uploads share the hash threads and buffers, each stored exactly', async () => {
    const contents = [0, 1, 2].map((i) => randomBytes(CHUNK_SIZE_BYTES * 2 + 1000 * (i + 1)));
    const items = await Promise.all(contents.map((c, i) => uploadFile(ctx.app, token, `par-${i}.bin`, c)));
    for (const [i, item] of items.entries()) {
      const content = contents[i]!;
      expect(item).toMatchObject({ size: content.length, chunks: 3, sha256: sha256(content) });
      const chunks = await ctx.db
        .selectFrom('file_chunks')
        .select(['idx', 'crc32c'])
        .where('file_id', '=', item.id)
        .orderBy('idx')
        .execute();
      expect(chunks.map((c) => c.crc32c)).toEqual(
        [0, 1, 2].map((k) => crc32(content.subarray(k * CHUNK_SIZE_BYTES, (k + 1) * CHUNK_SIZE_BYTES))),
      );
      const download = await ctx.app.inject({ url: `/download/${item.id}`, headers: bearer(token) });
      expect(Buffer.compare(download.rawPayload, content)).toBe(0);
    }
  });

  test('an empty file is a file too', async () => {
    const item = await uploadFile(ctx.app, token, 'empty.txt', Buffer.alloc(0));
    expect(item).toMatchObject({ size: 0, chunks: 0, sha256: sha256(Buffer.alloc(0)) });
    const download = await ctx.app.inject({ url: `/download/${item.id}`, headers: bearer(token) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe('0');
  });

  test('uploads into a folder with a category; the same name twice keeps both, numbered', async () => {
    const folder = await createFolder(ctx.app, token, 'Uploads');
    const first = await uploadFile(ctx.app, token, 'Photo.PNG', Buffer.from('1'), {
      folderId: folder.id,
      category: 'images',
    });
    const second = await uploadFile(ctx.app, token, 'photo.png', Buffer.from('2'), { folderId: folder.id });
    const third = await uploadFile(ctx.app, token, 'photo.png', Buffer.from('3'), { folderId: folder.id });
    expect(first).toMatchObject({ name: 'Photo.PNG', category: 'images', parentId: folder.id });
    expect(second.name).toBe('photo (1).png');
    expect(third.name).toBe('photo (2).png');
  });

  test('concurrent uploads of one name all land, under distinct names', async () => {
    const folder = await createFolder(ctx.app, token, 'Race');
    // Two members, three each: one member may have at most three uploads in flight (issue 15).
    const other = (await ctx.signIn()).token;
    const items = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        uploadFile(ctx.app, i % 2 ? other : token, 'same.txt', Buffer.from(`${i}`), { folderId: folder.id }),
      ),
    );
    expect(new Set(items.map((i) => i.name)).size).toBe(6);
  });

  test('a Unicode name round-trips, also through Content-Disposition', async () => {
    const name = 'Отчёт — 名前 😀 "quoted" \\ ü.tar.gz';
    const item = await uploadFile(ctx.app, token, name, Buffer.from('u'));
    expect(item.name).toBe(name);
    const res = await ctx.app.inject({ url: `/download/${item.id}`, headers: bearer(token) });
    const encoded = String(res.headers['content-disposition']).split("filename*=UTF-8''")[1]!;
    expect(decodeURIComponent(encoded)).toBe(name);
  });

  test.each([
    ['../../x', 'must not contain "/"'],
    ['evil\r\nSet-Cookie: a=b', 'control characters'],
    ['\u0000', 'control characters'],
    [`${'n'.repeat(256)}.txt`, 'at most 255 characters'],
    ['   ', 'must not be empty'],
  ])('a hostile file name %j is refused at completion and nothing is listed', async (fileName, message) => {
    const start = await startUpload(ctx.app, token, Buffer.from('hostile'), { name: 'x.bin' });
    const { fileId, totalChunks } = start.json();
    const res = await complete({ fileId, fileName, fileSize: 7, totalChunks });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect((await listFolder(ctx.app, token)).some((i) => i.id === fileId)).toBe(false);
  });

  test('completion checks the size and chunk count against what was stored, once', async () => {
    const start = await startUpload(ctx.app, token, Buffer.from('12345'));
    const { fileId, totalChunks } = start.json();
    const wrongSize = await complete({ fileId, fileName: 'f.txt', fileSize: 6, totalChunks });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().error).toBe('fileSize 6 does not match the 5 bytes received');
    const wrongChunks = await complete({ fileId, fileName: 'f.txt', fileSize: 5, totalChunks: 2 });
    expect(wrongChunks.json().error).toBe('totalChunks 2 does not match the 1 chunks stored');
    expect((await complete({ fileId, fileName: 'f.txt', fileSize: 5, totalChunks })).statusCode).toBe(200);
    const again = await complete({ fileId, fileName: 'f.txt', fileSize: 5, totalChunks });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This upload is already complete');
  });

  test.each([
    [{}, 'fileId'],
    [{ fileId: 'x', fileName: 'a', fileSize: -1, totalChunks: 0 }, 'fileSize must not be negative'],
    [{ fileId: 'x', fileName: 'a', fileSize: 1.5, totalChunks: 0 }, 'fileSize must be an integer'],
    [{ fileId: 'x', fileName: 'a', fileSize: '1', totalChunks: 0 }, 'fileSize must be a number'],
    [{ fileId: '../x', fileName: 'a', fileSize: 1, totalChunks: 1 }, 'fileId is not a valid id'],
  ])('complete refuses %j with a 400', async (body, message) => {
    const res = await complete(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });

  test("another user's upload, or an unknown one, is not found", async () => {
    const start = await startUpload(ctx.app, token, Buffer.from('mine'));
    const { fileId } = start.json();
    const other = (await ctx.signIn()).token;
    const status = await ctx.app.inject({ url: `/upload/status/${fileId}`, headers: bearer(other) });
    expect(status.statusCode).toBe(404);
    expect((await complete({ fileId, fileName: 'a', fileSize: 4, totalChunks: 1 }, other)).statusCode).toBe(
      404,
    );
    expect((await ctx.app.inject({ url: '/upload/status/unknown', headers: bearer(token) })).statusCode).toBe(
      404,
    );
  });
});

describe('bad uploads leave nothing behind', () => {
  const send = (payload: Buffer, headers: Record<string, string>, as = token) =>
    ctx.app.inject({ method: 'POST', url: '/upload', headers: { ...headers, ...bearer(as) }, payload });

  test.each([
    ['no file part', multipart({ category: 'x' }), 400, 'No file in the upload'],
    [
      'the file in another field',
      multipart({}, { name: 'a', content: Buffer.from('a'), field: 'upload' }),
      400,
      'field "file"',
    ],
    [
      'a malformed folderId',
      multipart({ folderId: '../..' }, { name: 'a', content: Buffer.from('a') }),
      400,
      'folderId is not a valid id',
    ],
    [
      'an unknown folder',
      multipart({ folderId: 'nowhere' }, { name: 'a', content: Buffer.from('a') }),
      404,
      'Folder not found',
    ],
    [
      'a control character in the category',
      multipart({ category: 'a\u0001' }, { name: 'a', content: Buffer.from('a') }),
      400,
      'category',
    ],
  ])('%s → %i', async (_what, body, status, message) => {
    const before = await allRows();
    const res = await send(body.payload, body.headers);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toContain(message);
    expect(await allRows()).toBe(before);
  });

  test('two files in one upload are refused', async () => {
    const a = multipart({}, { name: 'a', content: Buffer.from('a') });
    const boundary = a.headers['content-type']!.split('boundary=')[1]!;
    const second = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b"\r\n\r\nb\r\n--${boundary}--\r\n`,
    );
    const payload = Buffer.concat([
      a.payload.subarray(0, a.payload.length - `--${boundary}--\r\n`.length),
      second,
    ]);
    const before = await allRows();
    const res = await send(payload, a.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Send one file per upload');
    expect(await allRows()).toBe(before);
  });

  test('a body that is not multipart is a 415; truncated multipart a 400', async () => {
    const before = await allRows();
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/upload',
      headers: bearer(token),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const body = multipart({}, { name: 'a', content: Buffer.alloc(1000, 1) });
    const truncated = await send(body.payload.subarray(0, 300), body.headers);
    expect(truncated.statusCode).toBe(400);
    expect(await allRows()).toBe(before);
  });

  test('a declared size over MAX_UPLOAD_BYTES is refused at once with 413', async () => {
    const before = await allRows();
    const body = multipart({}, { name: 'big', content: Buffer.alloc(LIMIT + 1) });
    const res = await send(body.payload, body.headers);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'FILE_TOO_LARGE',
      error: expect.stringContaining('File is too large: the limit is 24 MB'),
    });
    expect(await allRows()).toBe(before);
  });

  test('uploads need level user: viewers get 403, signed out 401', async () => {
    const body = multipart({}, { name: 'a', content: Buffer.from('a') });
    const viewer = (await ctx.signIn({ access_level: 'viewer' })).token;
    expect((await send(body.payload, body.headers, viewer)).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/upload',
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('over real HTTP (streaming)', () => {
  let port: number;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  test('the limit is enforced while streaming (no Content-Length): 413, and no row or chunk remains', async () => {
    const blobsBefore = new Set(await storedBlobs());
    const rowsBefore = await allRows();
    const body = multipart({}, { name: 'endless.bin', content: Buffer.alloc(0) });
    const boundary = body.headers['content-type']!;
    const head = body.payload.subarray(0, body.payload.indexOf('\r\n\r\n') + 4);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: { 'content-type': boundary, 'transfer-encoding': 'chunked', ...bearer(token) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', () => {}); // the server closes the connection once it has answered
      req.write(head);
      const block = Buffer.alloc(1024 * 1024, 7);
      let sent = 0;
      const pump = () => {
        while (sent < LIMIT * 2) {
          sent += block.length;
          if (!req.write(block)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
      setTimeout(() => reject(new Error('no answer')), 15000);
    });
    expect(answer.status).toBe(413);
    // Nothing new remains: the rows are as before and every blob on disk was there before.
    await until(
      async () => (await allRows()) === rowsBefore && (await storedBlobs()).every((b) => blobsBefore.has(b)),
      'cleanup',
    );
  });

  test('an upload cut off halfway leaves nothing listed and no stored chunks after cleanup', async () => {
    const listedBefore = (await listFolder(ctx.app, token)).length;
    const body = multipart({}, { name: 'cut.bin', content: Buffer.alloc(0) });
    const head = body.payload.subarray(0, body.payload.indexOf('\r\n\r\n') + 4);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${head.length + 20 * 1024 * 1024 + 100}\r\n\r\n`,
    );
    socket.write(head);
    for (let i = 0; i < 10; i++) socket.write(randomBytes(1024 * 1024)); // half of the declared body
    // Wait until at least one whole chunk is stored, then vanish.
    let uploadId = '';
    let chunkBlobs: string[] = [];
    await until(async () => {
      const [uploading] = await uploadingRows();
      if (!uploading) return false;
      uploadId = uploading.id;
      const rows = await ctx.db
        .selectFrom('file_chunks')
        .select('blob_id')
        .where('file_id', '=', uploadId)
        .execute();
      chunkBlobs = rows.map((r) => r.blob_id);
      return chunkBlobs.length > 0;
    }, 'a stored chunk');
    expect(await storedBlobs()).toEqual(expect.arrayContaining(chunkBlobs));
    socket.destroy();

    await until(
      async () =>
        !(await ctx.db.selectFrom('files').select('id').where('id', '=', uploadId).executeTakeFirst()),
      'the upload row to go',
    );
    await until(
      async () => !(await storedBlobs()).some((b) => chunkBlobs.includes(b)),
      'its chunks to be deleted',
    );
    expect(
      await ctx.db.selectFrom('file_chunks').select('blob_id').where('file_id', '=', uploadId).execute(),
    ).toEqual([]);
    expect((await listFolder(ctx.app, token)).length).toBe(listedBefore);
    await until(() => temporaryBlobs(ctx.config).length === 0, 'no half-written chunk');
  });
});

describe('cleanup after a crash or an abandoned upload', () => {
  test('an upload whose process died is swept once its lease runs out; stored-but-never-completed after an hour', async () => {
    const own = await createTestApp();
    try {
      const { token: t } = await own.signIn();
      const store = new LocalBlobStore(path.join(own.dataDir, 'blobs'));
      // What a crash mid-upload leaves: an 'uploading' row whose lease is no longer renewed, one stored
      // chunk, a half-written temporary file, and a blob whose row was never written.
      const crashedId = 'crashed-upload';
      const now = new Date();
      await own.db
        .insertInto('files')
        .values({
          id: crashedId,
          parent_id: null,
          parent_key: '',
          type: 'file',
          name: 'crash.bin',
          name_key: '',
          category: 'uncategorized',
          size: 0,
          total_chunks: 0,
          sha256: null,
          status: 'uploading',
          owner_id: null,
          lease_expires_at: new Date(now.getTime() + 60_000).toISOString(),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
      const chunkBlob = await store.put([Buffer.from('chunk 0')]);
      await own.db
        .insertInto('file_chunks')
        .values({ file_id: crashedId, idx: 0, blob_id: chunkBlob, size: 7, crc32c: 'x', sha256: null })
        .execute();
      const orphan = await store.put([Buffer.from('no row')]);
      fs.writeFileSync(path.join(store.tmpDir, 'half-written'), 'half');
      // And an upload that was stored but never completed.
      const stored = (await startUpload(own.app, t, Buffer.from('never completed'))).json().fileId as string;

      // Soon after the crash nothing is touched (the lease may still be renewed by a live process).
      await runMaintenance(own.db, store, new Date(now.getTime() + 30_000), { orphans: true });
      expect(
        await own.db.selectFrom('files').select('id').where('id', '=', crashedId).executeTakeFirst(),
      ).toBeDefined();

      // After the lease: the crashed upload and the temporary file go; the orphan waits for its age.
      const later = new Date(now.getTime() + 3 * 60_000);
      const r1 = await runMaintenance(own.db, store, later, { orphans: true });
      expect(r1).toMatchObject({ abandonedUploads: 1, tmpRemoved: 1 });
      expect(fs.existsSync(path.join(store.tmpDir, 'half-written'))).toBe(false);

      const hourLater = new Date(now.getTime() + 61 * 60_000);
      fs.utimesSync(
        path.join(store.root, orphan.slice(0, 2), orphan),
        now.getTime() / 1000 - 7200,
        now.getTime() / 1000 - 7200,
      );
      const r2 = await runMaintenance(own.db, store, hourLater, { orphans: true });
      expect(r2.abandonedUploads).toBe(1); // the stored one
      expect(r2.orphanBlobs).toBe(1);
      expect(
        await own.db.selectFrom('files').select('id').where('id', 'in', [crashedId, stored]).execute(),
      ).toEqual([]);
      const left: string[] = [];
      for await (const b of store.list()) left.push(b.id);
      expect(left).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
