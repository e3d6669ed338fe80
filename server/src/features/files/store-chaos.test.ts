import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH, securityTexts, TUS_VERSION } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { type ChaosProxy, startChaosProxy } from '../../test/chaos-proxy.ts';
import { eventually } from '../../test/eventually.ts';
import { type FakeDiscordFiles, startFakeDiscordFiles } from '../../test/fake-discord-files/server.ts';
import { type S3TestServer, startS3Server } from '../../test/s3-server.ts';
import { startUpload, uploadFile } from './test-helpers.ts';

/**
 * Issue 25, the files part of the chaos suite: each blob store breaks while it is in use (a resumable
 * upload half sent, a download running) — S3 frozen and answering 5xx (s3rver behind a breaking proxy),
 * Discord's REST answering 5xx, a 429 storm and silence (the fake Discord), a full disk (a tmpfs). The
 * process stays up and the rest of the portal answers; the member gets a clear 503/507 (never a stack or
 * a path); nothing stored is lost or corrupted; and uploads and downloads work again by themselves once
 * the dependency is back. Each case prints its row of the table in docs/operations.md.
 */

const UNAVAILABLE = {
  success: false,
  error: 'File storage is unavailable right now; try again in a moment',
  code: 'STORAGE_UNAVAILABLE',
};
const FULL = { success: false, error: securityTexts.diskFull, code: 'STORAGE_FULL' };
/** A remote store call gives up after this (FILES_STORE_TIMEOUT_MS), so a frozen one costs seconds. */
const STORE_TIMEOUT_MS = 2000;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Breakage = {
  name: string;
  /** What the member is told while it lasts. */
  expected: typeof UNAVAILABLE;
  /** 503 for a store that is down, 507 for a full disk. */
  status: number;
  break(): void | Promise<void>;
  restore(): void | Promise<void>;
};

type Row = { situation: string; survived: boolean; memberSaw: string; recovered: boolean; seconds: number };

function tusCreate(ctx: TestContext, token: string, length: number) {
  return ctx.app.inject({
    method: 'POST',
    url: RESUMABLE_UPLOAD_PATH,
    headers: { ...bearer(token), 'tus-resumable': TUS_VERSION, 'upload-length': String(length) },
  });
}
function tusPatch(ctx: TestContext, token: string, id: string, offset: number, body: Buffer) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `${RESUMABLE_UPLOAD_PATH}/${id}`,
    headers: {
      ...bearer(token),
      'tus-resumable': TUS_VERSION,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(offset),
    },
    payload: body,
  });
}

/** The whole body of a download over HTTP; a cut transfer resolves with what arrived and `cut`. */
async function download(base: string, token: string, id: string) {
  try {
    const res = await fetch(`${base}/download/${id}`, { headers: bearer(token) });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes, cut: false };
  } catch {
    return { status: 0, bytes: Buffer.alloc(0), cut: true };
  }
}

/**
 * Breaks the store while a resumable upload is half sent and a download runs, checks what the member
 * sees and that the portal stays up, restores it, and times the recovery.
 */
async function chaosRun(ctx: TestContext, base: string, b: Breakage): Promise<Row> {
  const { token } = await ctx.signIn();
  const stored = randomBytes(2 * CHUNK_SIZE_BYTES + 4321);
  const old = await uploadFile(ctx.app, token, `kept-${b.name}.bin`, stored);
  const resumed = randomBytes(CHUNK_SIZE_BYTES + 999);
  const tusId = String((await tusCreate(ctx, token, resumed.length)).headers.location)
    .split('/')
    .at(-1)!;
  expect((await tusPatch(ctx, token, tusId, 0, resumed.subarray(0, CHUNK_SIZE_BYTES))).statusCode).toBe(204);

  // A download under way when the store breaks: it either finishes whole and right, or is cut off —
  // never a complete-looking wrong file.
  const running = download(base, token, old.id);
  await b.break();

  // While it is broken: clear answers, nothing else affected. The requests run at once, as members'
  // would: each one against a silent store waits out the store's time limit, so one after another they
  // cost that limit several times over, and the listing and health check answer while those wait.
  const fresh = randomBytes(CHUNK_SIZE_BYTES + 77);
  const [during, upload, patch, read, list, health] = await Promise.all([
    running,
    startUpload(ctx.app, token, fresh, { name: `fresh-${b.name}.bin` }),
    tusPatch(ctx, token, tusId, CHUNK_SIZE_BYTES, resumed.subarray(CHUNK_SIZE_BYTES)),
    b.status === 503 ? download(base, token, old.id) : null,
    ctx.app.inject({ url: '/api/files', headers: bearer(token) }),
    ctx.app.inject({ url: '/healthz' }),
  ]);
  if (!during.cut && during.status === 200 && during.bytes.length === stored.length) {
    expect(sha(during.bytes)).toBe(sha(stored));
  }
  expect(upload.statusCode).toBe(b.status);
  expect(upload.json()).toEqual(b.expected);
  expect(patch.statusCode).toBe(b.status);
  expect(patch.json()).toEqual(b.expected);
  if (read) {
    expect(read.status).toBe(503);
    expect(JSON.parse(read.bytes.toString())).toEqual(b.expected);
  }
  expect(list.statusCode).toBe(200);
  expect(health.statusCode).toBe(200);

  // Back: the next attempts work without a restart.
  await b.restore();
  const restoredAt = Date.now();
  await eventually(
    async () => {
      const again = await startUpload(ctx.app, token, fresh, { name: `fresh-${b.name}.bin` });
      expect(again.statusCode).toBe(200);
    },
    { interval: 200 },
  );
  const seconds = (Date.now() - restoredAt) / 1000;
  // The half-sent resumable upload continues from its stored chunk and completes intact.
  const rest = await tusPatch(ctx, token, tusId, CHUNK_SIZE_BYTES, resumed.subarray(CHUNK_SIZE_BYTES));
  expect(rest.statusCode).toBe(204);
  const done = await ctx.app.inject({
    method: 'POST',
    url: '/upload/complete',
    headers: bearer(token),
    payload: { fileId: tusId, fileName: `resumed-${b.name}.bin`, fileSize: resumed.length, totalChunks: 2 },
  });
  expect(done.statusCode).toBe(200);
  expect(sha((await download(base, token, tusId)).bytes)).toBe(sha(resumed));
  // What was stored before is intact.
  expect(sha((await download(base, token, old.id)).bytes)).toBe(sha(stored));
  const row: Row = {
    situation: b.name,
    survived: true,
    memberSaw: `${b.status} ${b.expected.code}`,
    recovered: true,
    seconds,
  };
  console.info(`chaos: ${row.situation} → survived, ${row.memberSaw}, recovered in ${seconds.toFixed(1)} s`);
  return row;
}

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

describe('S3 breaking while in use (s3rver behind a breaking proxy)', () => {
  let s3: S3TestServer;
  let proxy: ChaosProxy;
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    const target = new URL(s3.endpoint);
    proxy = await startChaosProxy({ host: target.hostname, port: Number(target.port) });
    ctx = await createTestApp({
      ...s3.env(),
      S3_ENDPOINT: proxy.url,
      FILES_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    });
    base = await listen(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
    await proxy?.close();
    await s3?.close();
  });

  test('S3 frozen (connections hang, nothing answers)', async () => {
    await chaosRun(ctx, base, {
      name: 'S3 frozen',
      expected: UNAVAILABLE,
      status: 503,
      break: () => proxy.set('freeze'),
      restore: () => proxy.set('pass'),
    });
  });

  test('S3 answering 503 SlowDown to everything', async () => {
    await chaosRun(ctx, base, {
      name: 'S3 5xx',
      expected: UNAVAILABLE,
      status: 503,
      break: () =>
        proxy.set('error', {
          status: 503,
          contentType: 'application/xml',
          body: '<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
        }),
      restore: () => proxy.set('pass'),
    });
  });
});

describe('Discord breaking while in use (the fake Discord behind a breaking proxy)', () => {
  let fake: FakeDiscordFiles;
  let proxy: ChaosProxy;
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeDiscordFiles();
    const target = new URL(fake.apiUrl);
    proxy = await startChaosProxy({ host: target.hostname, port: Number(target.port) });
    ctx = await createTestApp({
      FILES_STORE: 'discord',
      DISCORD_API_URL: `${proxy.url}/api`,
      DISCORD_BOT_TOKEN: fake.botToken,
      FILES_DISCORD_CHANNEL_ID: fake.createChannel(),
      // The fake parses each 8 MiB multipart post whole: on a busy test machine that takes seconds.
      FILES_STORE_TIMEOUT_MS: String(3 * STORE_TIMEOUT_MS),
    });
    base = await listen(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
    await proxy?.close();
    await fake?.close();
  });

  test('Discord REST answering 502 to everything', async () => {
    await chaosRun(ctx, base, {
      name: 'Discord REST 5xx',
      expected: UNAVAILABLE,
      status: 503,
      break: () =>
        proxy.set('error', {
          status: 502,
          contentType: 'application/json',
          body: '{"message": "502: Bad Gateway", "code": 0}',
        }),
      restore: () => proxy.set('pass'),
    });
  });

  test('Discord answering 429 to every request (a rate-limit storm)', async () => {
    await chaosRun(ctx, base, {
      name: 'Discord 429 storm',
      expected: UNAVAILABLE,
      status: 503,
      break: () => fake.set({ rateLimitEvery: 1, retryAfterSeconds: 0.25 }),
      restore: () => fake.set({ rateLimitEvery: 0 }),
    });
  });

  test('Discord REST silent (requests time out)', async () => {
    await chaosRun(ctx, base, {
      name: 'Discord REST timeouts',
      expected: UNAVAILABLE,
      status: 503,
      break: () => proxy.set('freeze'),
      restore: () => proxy.set('pass'),
    });
  });
});

const tmpfsProblem = (() => {
  if (process.platform !== 'linux') return 'tmpfs needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  return null;
})();

describe.skipIf(tmpfsProblem !== null)('the local disk filling up while in use (a 48 MiB tmpfs)', () => {
  test('full disk', async () => {
    const ctx = await createTestApp({ FILES_STORE: 'local', STORAGE_RESERVE_BYTES: '0' });
    const blobDir = path.join(ctx.dataDir, 'blobs');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', blobDir], { stdio: 'pipe' });
    fs.mkdirSync(path.join(blobDir, 'tmp'), { recursive: true });
    const filler = path.join(blobDir, 'filler');
    try {
      const base = await listen(ctx);
      await chaosRun(ctx, base, {
        name: 'local disk full',
        expected: FULL,
        status: 507,
        break: () => {
          // Another program takes what is left of the disk (ENOSPC when full: as intended).
          try {
            fs.writeFileSync(filler, Buffer.alloc(48 * 1024 * 1024));
          } catch {}
        },
        restore: () => fs.rmSync(filler, { force: true }),
      });
    } finally {
      await ctx.close().catch(() => {});
      execFileSync('umount', ['-l', blobDir]);
    }
  });
});
