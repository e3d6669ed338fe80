import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH, TUS_VERSION } from '@guildhall/common';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, defaultTestDatabase, type TestContext } from '../../../test/app.ts';
import { filesStoreEnv } from '../../../test/files-store.ts';

let ctx: TestContext;
let token: string;
let base: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = (await ctx.signIn()).token;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tusHeaders = (extra: Record<string, string> = {}) => ({
  ...bearer(token),
  'tus-resumable': TUS_VERSION,
  ...extra,
});

/** tus-js-client in Node, as the web page drives it (one 8 MiB chunk per request). */
function tusUpload(content: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(content, {
      endpoint: `${base}${RESUMABLE_UPLOAD_PATH}`,
      chunkSize: CHUNK_SIZE_BYTES,
      metadata: { filename: name },
      headers: bearer(token),
      retryDelays: [0],
      onError: reject,
      onSuccess: () => resolve(upload.url!.split('/').at(-1)!),
    });
    upload.start();
  });
}

async function complete(fileId: string, fileName: string, size: number) {
  return ctx.app.inject({
    method: 'POST',
    url: '/upload/complete',
    headers: bearer(token),
    payload: { fileId, fileName, fileSize: size, totalChunks: Math.ceil(size / CHUNK_SIZE_BYTES) },
  });
}

async function downloadSha(id: string): Promise<string> {
  const res = await fetch(`${base}/download/${id}`, { headers: bearer(token) });
  return sha256(Buffer.from(await res.arrayBuffer()));
}

/** A PATCH that sends `bytes` of the body and then drops the connection. */
function cutPatch(id: string, offset: number, body: Buffer, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${RESUMABLE_UPLOAD_PATH}/${id}`, {
      method: 'PATCH',
      headers: tusHeaders({
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(offset),
        'content-length': String(body.length),
      }),
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, bytes), () => setImmediate(() => req.destroy()));
  });
}

describe('resumable uploads (tus) on the chunk store', () => {
  test('tus-js-client uploads a multi-chunk file; /upload/complete lists it with the right hash', async () => {
    const content = randomBytes(2 * CHUNK_SIZE_BYTES + 777);
    const id = await tusUpload(content, 'resumed.bin');
    const done = await complete(id, 'resumed.bin', content.length);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ name: 'resumed.bin', size: content.length, chunks: 3 });
    expect(done.json().data.sha256).toBe(sha256(content));
    expect(await downloadSha(id)).toBe(sha256(content));
    // On a store that groups a file's chunks (a Discord thread), every request added to the same group.
    const threadId = done.json().data.threadId as string | null;
    const chunks = await ctx.db
      .selectFrom('file_chunks')
      .select('blob_id')
      .where('file_id', '=', id)
      .execute();
    if (threadId) expect(chunks.every((c) => c.blob_id.startsWith(`discord:${threadId}/`))).toBe(true);
  });

  test('a connection dropped mid-chunk resumes from the last stored chunk; stored chunks are never sent again', async () => {
    const content = randomBytes(3 * CHUNK_SIZE_BYTES);
    const create = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders({ 'upload-length': String(content.length) }),
    });
    expect(create.status).toBe(201);
    const id = create.headers.get('location')!.split('/').at(-1)!;

    // All of chunk 0 and half of chunk 1 arrive, then the connection drops.
    await cutPatch(id, 0, content, CHUNK_SIZE_BYTES + CHUNK_SIZE_BYTES / 2);
    const head = async () =>
      (
        await fetch(`${base}${RESUMABLE_UPLOAD_PATH}/${id}`, { method: 'HEAD', headers: tusHeaders() })
      ).headers.get('upload-offset');
    await expect.poll(head).toBe(String(CHUNK_SIZE_BYTES));
    const chunkRows = async () =>
      (await ctx.db.selectFrom('file_chunks').selectAll().where('file_id', '=', id).execute()).length;
    expect(await chunkRows()).toBe(1);

    // The client resumes at the offset the server reported: only chunks 1 and 2 travel again.
    const rest = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}/${id}`, {
      method: 'PATCH',
      headers: tusHeaders({
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(CHUNK_SIZE_BYTES),
      }),
      body: content.subarray(CHUNK_SIZE_BYTES),
    });
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(content.length));
    expect(await chunkRows()).toBe(3);
    const done = await complete(id, 'cut.bin', content.length);
    expect(done.statusCode).toBe(200);
    expect(done.json().data.sha256).toBe(sha256(content));
    expect(await downloadSha(id)).toBe(sha256(content));
  });

  test('an upload continued on another instance (no running hash there) rebuilds the hash from the stored chunks once', async () => {
    // Two instances on one database and one store (for local disk: one data dir, as on one host).
    const env = await filesStoreEnv();
    const a = await createTestApp(env);
    const b = await createTestApp({ ...env, DATA_DIR: a.dataDir }, defaultTestDatabase(), {
      sameDatabaseAs: a,
    });
    try {
      const { token: member } = await a.signIn();
      const headers = { ...bearer(member), 'tus-resumable': TUS_VERSION };
      const urls: string[] = [];
      for (const ctxN of [a, b]) {
        await ctxN.app.listen({ port: 0, host: '127.0.0.1' });
        urls.push(`http://127.0.0.1:${(ctxN.app.server.address() as AddressInfo).port}`);
      }
      const content = randomBytes(2 * CHUNK_SIZE_BYTES + 777);
      const create = await fetch(`${urls[0]}${RESUMABLE_UPLOAD_PATH}`, {
        method: 'POST',
        headers: { ...headers, 'upload-length': String(content.length) },
      });
      const id = create.headers.get('location')!.split('/').at(-1)!;
      const patch = (at: string, from: number, to: number) =>
        fetch(`${at}${RESUMABLE_UPLOAD_PATH}/${id}`, {
          method: 'PATCH',
          headers: {
            ...headers,
            'content-type': 'application/offset+octet-stream',
            'upload-offset': String(from),
          },
          body: content.subarray(from, to),
        });
      // Chunk 0 through the first instance, the rest through the second.
      expect((await patch(urls[0]!, 0, CHUNK_SIZE_BYTES)).headers.get('upload-offset')).toBe(
        String(CHUNK_SIZE_BYTES),
      );
      const rest = await patch(urls[1]!, CHUNK_SIZE_BYTES, content.length);
      expect(rest.status).toBe(204);
      expect(rest.headers.get('upload-offset')).toBe(String(content.length));
      const done = await a.app.inject({
        method: 'POST',
        url: '/upload/complete',
        headers: bearer(member),
        payload: { fileId: id, fileName: 'two-instances.bin', fileSize: content.length, totalChunks: 3 },
      });
      expect(done.json().data.sha256).toBe(sha256(content));
      const back = await fetch(`${urls[1]}/download/${id}`, { headers: bearer(member) });
      expect(sha256(Buffer.from(await back.arrayBuffer()))).toBe(sha256(content));
    } finally {
      // This test's fetch keeps its connections alive; closing them first spares each close a wait of up
      // to the server's 5 s keep-alive timeout.
      for (const c of [a, b]) c.app.server.closeAllConnections();
      await b.close();
      await a.close();
    }
  }); // two apps and 16 MiB: slow on a loaded machine

  test("another member cannot see, continue or cancel someone's upload", async () => {
    const create = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders({ 'upload-length': '10' }),
    });
    const id = create.headers.get('location')!.split('/').at(-1)!;
    const other = (await ctx.signIn()).token;
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      const res = await ctx.app.inject({
        method,
        url: `${RESUMABLE_UPLOAD_PATH}/${id}`,
        headers: {
          ...bearer(other),
          'tus-resumable': TUS_VERSION,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': '0',
        },
      });
      expect(res.statusCode, method).toBe(404);
    }
    const mine = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}/${id}`, {
      method: 'DELETE',
      headers: tusHeaders(),
    });
    expect(mine.status).toBe(204);
    expect(
      await ctx.db.selectFrom('files').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
  });

  test('protocol mistakes are refused with a message, before any byte is stored', async () => {
    const noVersion = await ctx.app.inject({
      method: 'POST',
      url: RESUMABLE_UPLOAD_PATH,
      headers: { ...bearer(token), 'upload-length': '5' },
    });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.json().error).toBe(`Send the header Tus-Resumable: ${TUS_VERSION}`);
    const tooBig = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders({ 'upload-length': String(ctx.config.files.maxUploadBytes + 1) }),
    });
    expect(tooBig.status).toBe(413);
    const badFolder = await fetch(`${base}${RESUMABLE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders({
        'upload-length': '5',
        'upload-metadata': `folderId ${Buffer.from('no-such-folder').toString('base64')}`,
      }),
    });
    expect(badFolder.status).toBe(404);
  });
});
