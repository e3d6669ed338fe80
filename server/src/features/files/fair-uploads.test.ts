import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { RESUMABLE_UPLOAD_PATH, securityTexts, TUS_VERSION } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { storedBlobIds, temporaryBlobs } from '../../test/files-store.ts';
import { multipart, uploadFile } from './test-helpers.ts';

/**
 * Issue 15, upload starvation: per-member upload slots, idle and minimum-rate limits on upload bodies,
 * and small uploads that never wait behind slow ones for the shared chunk buffers.
 */

type Slow = {
  socket: net.Socket;
  /** Resolves with what the server answered (may be empty) once it closes the connection. */
  closed: Promise<string>;
  send: (bytes: number) => void;
};

/** A multipart POST /upload over a raw socket that sends the head and `initial` bytes, then what the test sends. */
async function openUpload(port: number, token: string, initial: number, declared = 64 * 1024 * 1024) {
  const body = multipart({}, { name: 'slow.bin', content: Buffer.alloc(0) });
  const head = body.payload.subarray(0, body.payload.indexOf('\r\n\r\n') + 4);
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let answer = '';
  socket.on('data', (d) => {
    answer += d.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${head.length + declared}\r\n\r\n`,
  );
  socket.write(head);
  const send = (bytes: number) => {
    if (!socket.destroyed) socket.write(randomBytes(bytes));
  };
  if (initial > 0) send(initial);
  return { socket, closed, send } satisfies Slow;
}

const uploadingCount = async (ctx: TestContext) =>
  (await ctx.db.selectFrom('files').select('id').where('status', '=', 'uploading').execute()).length;

describe('12 slow uploads do not starve another member (default limits)', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  test("another member's 1 MiB upload completes in under 2 s while 12 uploads trickle", async () => {
    // Four accounts with three uploads each (the per-member cap): every one has sent 1.5 MiB (past the
    // first megabyte an upload fills a shared buffer) and then keeps trickling 1 KiB.
    const slow: Slow[] = [];
    for (let u = 0; u < 4; u++) {
      const { token } = await ctx.signIn();
      for (let i = 0; i < 3; i++) slow.push(await openUpload(port, token, 1536 * 1024));
    }
    const trickle = setInterval(() => {
      for (const s of slow) s.send(1024);
    }, 200);
    try {
      await eventually(async () => expect(await uploadingCount(ctx)).toBe(12));
      const member = await ctx.signIn();
      const content = randomBytes(1024 * 1024);
      const started = performance.now();
      const item = await uploadFile(ctx.app, member.token, 'small.bin', content);
      const elapsed = performance.now() - started;
      expect(item.size).toBe(content.length);
      expect(elapsed).toBeLessThan(2000);
      // The slow ones were still open all along (nothing was refused to make room).
      expect(slow.every((s) => !s.socket.destroyed)).toBe(true);
    } finally {
      clearInterval(trickle);
      for (const s of slow) s.socket.destroy();
    }
    await eventually(async () => expect(await uploadingCount(ctx)).toBe(0));
  });
});

describe('per-member upload slots, idle timeout and minimum rate (small limits)', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestApp({
      UPLOADS_PER_USER: '3',
      UPLOAD_IDLE_TIMEOUT_MS: '600',
      UPLOAD_MIN_BYTES_PER_SECOND: String(256 * 1024),
      UPLOAD_RATE_WINDOW_MS: '1500',
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  const storedBlobs = async () => [...(await storedBlobIds(ctx.config)), ...temporaryBlobs(ctx.config)];

  test('a fourth upload of one member answers 429 (spec upload and tus alike); another member is not affected', async () => {
    const { token } = await ctx.signIn();
    const open: Slow[] = [];
    const keepAlive = setInterval(() => {
      for (const s of open) s.send(256 * 1024);
    }, 100);
    try {
      for (let i = 0; i < 3; i++) open.push(await openUpload(port, token, 64 * 1024));
      await eventually(async () => expect(await uploadingCount(ctx)).toBe(3));

      const fourth = multipart({}, { name: 'four.bin', content: Buffer.from('four') });
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/upload',
        headers: { ...fourth.headers, ...bearer(token) },
        payload: fourth.payload,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        success: false,
        error: securityTexts.tooManyUploads(3),
        code: 'TOO_MANY_UPLOADS',
      });
      const tus = await ctx.app.inject({
        method: 'POST',
        url: RESUMABLE_UPLOAD_PATH,
        headers: { ...bearer(token), 'tus-resumable': TUS_VERSION, 'upload-length': '4' },
      });
      expect(tus.statusCode).toBe(429);
      expect(tus.json()).toMatchObject({ error: securityTexts.tooManyUploads(3) });

      const other = await ctx.signIn();
      expect((await uploadFile(ctx.app, other.token, 'other.bin', Buffer.from('ok'))).size).toBe(2);
    } finally {
      clearInterval(keepAlive);
      for (const s of open) s.socket.destroy();
    }
    // The slots come back once those uploads are gone.
    await eventually(async () => expect(await uploadingCount(ctx)).toBe(0));
    await eventually(async () =>
      expect((await uploadFile(ctx.app, token, 'again.bin', Buffer.from('a'))).size).toBe(1),
    );
  });

  test('a body that stops sending is dropped after the idle timeout, and its stored chunk is deleted', async () => {
    const blobsBefore = new Set(await storedBlobs());
    const chunksBefore = (await ctx.db.selectFrom('file_chunks').select('file_id').execute()).length;
    const { token } = await ctx.signIn();
    // 9 MiB: one whole 8 MiB chunk is stored before the body stalls.
    const s = await openUpload(port, token, 9 * 1024 * 1024);
    const answer = await s.closed;
    expect(answer).toMatch(/^(HTTP\/1\.1 408|)/);
    await eventually(async () => expect(await uploadingCount(ctx)).toBe(0));
    expect((await ctx.db.selectFrom('file_chunks').select('file_id').execute()).length).toBe(chunksBefore);
    await eventually(async () =>
      expect((await storedBlobs()).filter((b) => !blobsBefore.has(b))).toEqual([]),
    );
  });

  test('a body that keeps trickling below the minimum rate is dropped and cleaned up', async () => {
    const { token } = await ctx.signIn();
    const s = await openUpload(port, token, 1024);
    // 4 KiB every 100 ms: never idle, but ~40 KiB/s against a 256 KiB/s minimum.
    const trickle = setInterval(() => s.send(4096), 100);
    try {
      await s.closed;
    } finally {
      clearInterval(trickle);
    }
    await eventually(async () => expect(await uploadingCount(ctx)).toBe(0));
  });

  test('a tus PATCH that stalls is cut off; the partial chunk is dropped and the upload resumes from its last stored chunk', async () => {
    const { token } = await ctx.signIn();
    const created = await ctx.app.inject({
      method: 'POST',
      url: RESUMABLE_UPLOAD_PATH,
      headers: { ...bearer(token), 'tus-resumable': TUS_VERSION, 'upload-length': String(2 * 1024 * 1024) },
    });
    expect(created.statusCode).toBe(201);
    const id = String(created.headers.location).split('/').at(-1)!;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.on('error', () => {});
    const closed = new Promise((r) => socket.once('close', r));
    socket.write(
      `PATCH ${RESUMABLE_UPLOAD_PATH}/${id} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Tus-Resumable: ${TUS_VERSION}\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n` +
        `Content-Length: ${2 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write(randomBytes(100 * 1024));
    await closed;
    const head = await ctx.app.inject({
      method: 'HEAD',
      url: `${RESUMABLE_UPLOAD_PATH}/${id}`,
      headers: { ...bearer(token), 'tus-resumable': TUS_VERSION },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
  });
});
