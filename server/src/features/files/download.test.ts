import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CHUNK_SIZE_BYTES, type FileItem } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { testFilesStore } from '../../test/files-store.ts';
import { listChunks } from './repo.ts';
import { createFolder, uploadFile } from './test-helpers.ts';

let ctx: TestContext;
let token: string;
let small: FileItem;
let big: FileItem;
const smallContent = Buffer.from('0123456789');
const bigContent = randomBytes(CHUNK_SIZE_BYTES + 1000);

beforeAll(async () => {
  ctx = await createTestApp();
  token = (await ctx.signIn()).token;
  small = await uploadFile(ctx.app, token, 'digits.txt', smallContent);
  big = await uploadFile(ctx.app, token, 'two-chunks.bin', bigContent);
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers: { ...bearer(token), ...headers } });

describe('GET /download/:id', () => {
  test('streams the file as an attachment that can never run in the portal origin', async () => {
    const res = await get(`/download/${small.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('0123456789');
    expect(res.headers).toMatchObject({
      'content-length': '10',
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename=digits.txt',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'accept-ranges': 'bytes',
      etag: `"${createHash('sha256').update(smallContent).digest('hex')}"`,
    });
  });

  test('an uploaded HTML or SVG file is still a sandboxed octet-stream attachment', async () => {
    const svg = await uploadFile(ctx.app, token, 'evil.svg', Buffer.from('<svg onload="alert(1)"/>'));
    const html = await uploadFile(ctx.app, token, 'evil.html', Buffer.from('<script>alert(1)</script>'));
    for (const item of [svg, html]) {
      const res = await get(`/download/${item.id}`);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy']).toContain('sandbox');
    }
  });

  test.each([
    ['bytes=0-4', 206, '01234', 'bytes 0-4/10'],
    ['bytes=5-', 206, '56789', 'bytes 5-9/10'],
    ['bytes=-3', 206, '789', 'bytes 7-9/10'],
    ['bytes=9-9', 206, '9', 'bytes 9-9/10'],
    ['bytes=8-1000', 206, '89', 'bytes 8-9/10'],
    ['bytes=0-1,4-5', 200, '0123456789', undefined],
    ['bytes=7-2', 200, '0123456789', undefined],
    ['lines=1-2', 200, '0123456789', undefined],
  ])('Range %s → %i', async (range, status, body, contentRange) => {
    const res = await get(`/download/${small.id}`, { range });
    expect(res.statusCode).toBe(status);
    expect(res.body).toBe(body);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.headers['content-range']).toBe(contentRange);
  });

  test.each(['bytes=10-', 'bytes=10-20', 'bytes=-0'])('Range %s → 416 with the size', async (range) => {
    const res = await get(`/download/${small.id}`, { range });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */10');
    expect(res.json().error).toBe('Range not satisfiable: the file has 10 bytes');
  });

  test('a range across a chunk boundary is stitched from both chunks', async () => {
    const start = CHUNK_SIZE_BYTES - 100;
    const res = await get(`/download/${big.id}`, { range: `bytes=${start}-${start + 299}` });
    expect(res.statusCode).toBe(206);
    expect(Buffer.compare(res.rawPayload, bigContent.subarray(start, start + 300))).toBe(0);
    const whole = await get(`/download/${big.id}`);
    expect(Buffer.compare(whole.rawPayload, bigContent)).toBe(0);
  });

  test('If-None-Match answers 304; If-Range with another ETag sends the whole file', async () => {
    const etag = String((await get(`/download/${small.id}`)).headers.etag);
    expect((await get(`/download/${small.id}`, { 'if-none-match': etag })).statusCode).toBe(304);
    const stale = await get(`/download/${small.id}`, { range: 'bytes=0-1', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    const fresh = await get(`/download/${small.id}`, { range: 'bytes=0-1', 'if-range': etag });
    expect(fresh.statusCode).toBe(206);
  });

  test('HEAD gives the headers and the real length without a body', async () => {
    const res = await get(`/download/${big.id}`, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bigContent.length));
    expect(res.body).toBe('');
  });

  test('folders, unknown and malformed ids', async () => {
    const folder = await createFolder(ctx.app, token, 'Not downloadable');
    expect((await get(`/download/${folder.id}`)).statusCode).toBe(404);
    expect((await get('/download/unknown')).statusCode).toBe(404);
    expect((await get('/download/..%2F..%2Fetc')).statusCode).toBe(400);
  });

  test('signed out without a ticket is a 401', async () => {
    const res = await ctx.app.inject({ url: `/download/${small.id}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_REQUIRED');
  });
});

describe('download tickets (for the browser download manager)', () => {
  test('a ticket downloads that one file without any header, and no other file', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${small.id}/download-ticket`,
      headers: bearer(token),
    });
    expect(issued.statusCode).toBe(200);
    const { url, expiresAt } = issued.json().data;
    expect(url).toMatch(new RegExp(`^/download/${small.id}\\?ticket=[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(60_000);
    expect(url).not.toContain(token);

    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('0123456789');
    const ranged = await ctx.app.inject({ url, headers: { range: 'bytes=2-3' } });
    expect(ranged.body).toBe('23'); // resumable while valid

    const ticket = url.split('ticket=')[1];
    const elsewhere = await ctx.app.inject({ url: `/download/${big.id}?ticket=${ticket}` });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().code).toBe('TICKET_INVALID');
  });

  test('an expired or made-up ticket is refused', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${small.id}/download-ticket`,
      headers: bearer(token),
    });
    const { url } = issued.json().data;
    await ctx.db
      .updateTable('download_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await ctx.app.inject({ url })).statusCode).toBe(403);
    expect((await ctx.app.inject({ url: `/download/${small.id}?ticket=made-up` })).statusCode).toBe(403);
    expect(
      (await ctx.app.inject({ url: `/download/${small.id}?ticket=${'x'.repeat(200)}` })).statusCode,
    ).toBe(400);
  });

  test('tickets need a signed-in member and an existing file', async () => {
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/files/${small.id}/download-ticket` })).statusCode,
    ).toBe(401);
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/files/nope/download-ticket',
      headers: bearer(token),
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe.runIf(testFilesStore() === 'local')(
  'a chunk damaged on disk (issue 18: checked on every read)',
  () => {
    /**
     * Downloads over a real socket: resolves with the bytes of a 2xx; rejects when the server cuts the
     * body (damage found after bytes went out) or answers an error (damage found before any did).
     */
    async function fetchBytes(id: string, headers: Record<string, string> = {}): Promise<Buffer> {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => {}); // already listening: fine
      const port = (ctx.app.server.address() as AddressInfo).port;
      const res = await fetch(`http://127.0.0.1:${port}/download/${id}`, {
        headers: { ...bearer(token), ...headers },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (!res.ok) throw new Error(`${res.status}: ${bytes.toString()}`);
      return bytes;
    }
    const blobFile = (blobId: string) => path.join(ctx.dataDir, 'blobs', blobId.slice(0, 2), blobId);

    test('one flipped byte fails the download instead of passing as the file, whole or by range; intact chunks still serve', async () => {
      const [first, second] = await listChunks(ctx.db, big.id);
      const file = blobFile(second!.blob_id);
      const original = fs.readFileSync(file);
      const damaged = Buffer.from(original);
      damaged[500] = damaged[500]! ^ 0xff;
      fs.writeFileSync(file, damaged);
      try {
        await expect(fetchBytes(big.id)).rejects.toThrow();
        // A range inside the damaged chunk: the chunk is read whole to be checked, so the damage shows.
        const start = CHUNK_SIZE_BYTES + 10;
        await expect(fetchBytes(big.id, { range: `bytes=${start}-${start + 20}` })).rejects.toThrow(
          /^500: .*stored data is damaged/,
        );
        // A range inside the intact first chunk is served.
        const head = await fetchBytes(big.id, { range: `bytes=0-99` });
        expect(head.equals(bigContent.subarray(0, 100))).toBe(true);
        expect(first!.crc32c).toMatch(/^[0-9a-f]{8}$/);
      } finally {
        fs.writeFileSync(file, original);
      }
      expect((await fetchBytes(big.id)).equals(bigContent)).toBe(true);
    });

    test('a chunk gone from disk: 410 saying the stored data is missing, never a bare 500; intact chunks still serve', async () => {
      const [, second] = await listChunks(ctx.db, big.id);
      const file = blobFile(second!.blob_id);
      const original = fs.readFileSync(file);
      fs.rmSync(file);
      try {
        // The whole file: its first chunk is there, so the answer went out and the body is cut.
        await expect(fetchBytes(big.id)).rejects.toThrow();
        // A range inside the missing chunk: found before any byte went out, so a JSON answer says why.
        const start = CHUNK_SIZE_BYTES + 10;
        await expect(fetchBytes(big.id, { range: `bytes=${start}-${start + 20}` })).rejects.toThrow(
          /^410: .*"STORED_DATA_MISSING"/,
        );
        const head = await fetchBytes(big.id, { range: 'bytes=0-99' });
        expect(head.equals(bigContent.subarray(0, 100))).toBe(true);
      } finally {
        fs.writeFileSync(file, original);
      }
      expect((await fetchBytes(big.id)).equals(bigContent)).toBe(true);
    });

    test('a chunk stored before migration 012 (SHA-256, no CRC32C) is checked by its SHA-256', async () => {
      const [, second] = await listChunks(ctx.db, big.id);
      const bytes = fs.readFileSync(blobFile(second!.blob_id));
      const set = (values: { crc32c: string | null; sha256: string | null }) =>
        ctx.db
          .updateTable('file_chunks')
          .set(values)
          .where('file_id', '=', big.id)
          .where('idx', '=', 1)
          .execute();
      try {
        await set({ crc32c: null, sha256: createHash('sha256').update(bytes).digest('hex') });
        expect((await fetchBytes(big.id)).equals(bigContent)).toBe(true);
        await set({ crc32c: null, sha256: '0'.repeat(64) });
        await expect(fetchBytes(big.id)).rejects.toThrow();
      } finally {
        await set({ crc32c: second!.crc32c, sha256: null });
      }
    });
  },
);
