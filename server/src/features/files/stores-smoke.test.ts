import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH } from '@guildhall/common';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import {
  filesStoreEnv,
  sharedFakeDiscordFiles,
  sharedS3Server,
  storedBlobIds,
  type TestFilesStore,
} from '../../test/files-store.ts';
import { uploadFile } from './test-helpers.ts';

/**
 * One end-to-end pass over the HTTP routes on each store (the store contract itself is
 * platform/blob-store/contract.test.ts; the other files suites run on local disk): a two-chunk upload,
 * a resumable upload in 8 MiB requests, whole and ranged downloads across the chunk boundary, a share
 * link, and deletion.
 */
const STORES: TestFilesStore[] = ['local', 's3', 'discord'];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const contexts: TestContext[] = [];

afterAll(async () => {
  for (const c of contexts) await c.close();
  await (await sharedS3Server()).close();
  await (await sharedFakeDiscordFiles()).close();
});

describe.each(STORES)('files over HTTP on the %s store', (kind) => {
  test('upload, resumable upload, download (whole, ranged), share link and delete', async () => {
    const ctx = await createTestApp(await filesStoreEnv(kind));
    contexts.push(ctx);
    expect(ctx.config.blobStore.store).toBe(kind);
    const { token } = await ctx.signIn({ access_level: 'user' });
    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ url, headers: { ...bearer(token), ...headers } });

    const content = randomBytes(CHUNK_SIZE_BYTES + 4321);
    const item = await uploadFile(ctx.app, token, 'two-chunks.bin', content);
    const whole = await get(`/download/${item.id}`);
    expect(whole.statusCode).toBe(200);
    expect(sha256(whole.rawPayload)).toBe(sha256(content));
    const start = CHUNK_SIZE_BYTES - 100;
    const ranged = await get(`/download/${item.id}`, { range: `bytes=${start}-${start + 199}` });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload).toEqual(content.subarray(start, start + 200));

    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const resumed = randomBytes(CHUNK_SIZE_BYTES + 999);
    const resumedId = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(resumed, {
        endpoint: `${base}${RESUMABLE_UPLOAD_PATH}`,
        chunkSize: CHUNK_SIZE_BYTES,
        metadata: { filename: 'resumed.bin' },
        headers: bearer(token),
        retryDelays: [0],
        onError: reject,
        onSuccess: () => resolve(upload.url!.split('/').at(-1)!),
      });
      upload.start();
    });
    const done = await ctx.app.inject({
      method: 'POST',
      url: '/upload/complete',
      headers: bearer(token),
      payload: { fileId: resumedId, fileName: 'resumed.bin', fileSize: resumed.length, totalChunks: 2 },
    });
    expect(done.statusCode).toBe(200);
    expect(sha256((await get(`/download/${resumedId}`)).rawPayload)).toBe(sha256(resumed));

    const share = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${item.id}/share`,
      headers: bearer(token),
      payload: { accessLevel: 'public' },
    });
    expect(share.statusCode).toBe(201);
    const shareToken = (share.json() as { data: { token: string } }).data.token;
    const shared = await ctx.app.inject({ url: `/api/files/shared/${shareToken}/download` });
    expect(shared.statusCode).toBe(200);
    expect(sha256(shared.rawPayload)).toBe(sha256(content));

    expect(await storedBlobIds(ctx.config)).toHaveLength(4);
    for (const id of [item.id, resumedId]) {
      const del = await ctx.app.inject({ method: 'DELETE', url: `/api/files/${id}`, headers: bearer(token) });
      expect(del.statusCode).toBe(200);
    }
    const collected = await ctx.app.inject({ url: `/download/${item.id}`, headers: bearer(token) });
    expect(collected.statusCode).toBe(404);
  });
});
