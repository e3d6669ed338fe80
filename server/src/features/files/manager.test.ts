import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FILE_MANAGER_TEXTS, type FileItem, TRASH_RETENTION_MS } from '@guildhall/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { realClock } from '../../platform/feature.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { storedBlobIds } from '../../test/files-store.ts';
import { createFolder, listFolder, uploadFile } from './test-helpers.ts';

// Runs on whichever store TEST_FILES_STORE names (local disk, S3, Discord): see vitest.config.ts.
let ctx: TestContext;
let token: string;
let adminToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = (await ctx.signIn()).token;
  adminToken = (await ctx.signIn({ access_level: 'admin' })).token;
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token) =>
  ctx.app.inject({ method, url, headers: bearer(as), payload: payload as object | undefined });

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
}

describe('trash', () => {
  test('a deleted folder leaves every listing, comes back whole on restore, and counts in the quota meanwhile', async () => {
    const folder = await createFolder(ctx.app, token, 'Trip');
    const inner = await createFolder(ctx.app, token, 'Day 1', folder.id);
    await uploadFile(ctx.app, token, 'beach.txt', Buffer.from('sand'), { folderId: inner.id });

    const usedBefore = (await call('GET', '/api/files/usage')).json().data.usedBytes;
    const del = await call('DELETE', `/api/folders/${folder.id}`);
    // Trashed bytes still count until purged.
    expect((await call('GET', '/api/files/usage')).json().data.usedBytes).toBe(usedBefore);
    expect(del.json().data).toEqual({ deletedFiles: 1, deletedFolders: 2 });
    expect((await listFolder(ctx.app, token)).some((i) => i.id === folder.id)).toBe(false);
    expect((await call('GET', '/api/files/find?q=beach')).json().data).toEqual([]);
    expect((await call('GET', `/api/files?folderId=${inner.id}`)).statusCode).toBe(404);

    const trash = (await call('GET', '/api/trash')).json();
    const entry = trash.data.find((t: { id: string }) => t.id === folder.id);
    expect(entry).toMatchObject({ name: 'Trip', type: 'folder', size: 4, originalPath: [] });
    expect(Date.parse(entry.purgeAt) - Date.parse(entry.deletedAt)).toBe(TRASH_RETENTION_MS);
    // What was inside is not listed as a trash item of its own.
    expect(trash.data.some((t: { id: string }) => t.id === inner.id)).toBe(false);

    const restored = await call('POST', `/api/trash/${folder.id}/restore`);
    expect(restored.statusCode).toBe(200);
    const found = (await call('GET', '/api/files/find?q=beach')).json().data;
    expect(found.map((h: { folderPath: { name: string }[] }) => h.folderPath.map((p) => p.name))).toEqual([
      ['Trip', 'Day 1'],
    ]);
  });

  test('a restored file whose name was taken meanwhile gets a numbered name and says so', async () => {
    const first = await uploadFile(ctx.app, token, 'notes.md', Buffer.from('one'));
    await call('DELETE', `/api/files/${first.id}`);
    await uploadFile(ctx.app, token, 'notes.md', Buffer.from('two'));
    const res = await call('POST', `/api/trash/${first.id}/restore`);
    expect(res.json().data.name).toBe('notes (1).md');
    expect(res.json().message).toContain('renamed to "notes (1).md"');
  });

  test('items past the retention are purged with their bytes; younger ones stay', async () => {
    const old = await uploadFile(ctx.app, token, 'old.bin', Buffer.alloc(1000, 1));
    const young = await uploadFile(ctx.app, token, 'young.bin', Buffer.alloc(1000, 2));
    await call('DELETE', `/api/files/${old.id}`);
    await call('DELETE', `/api/files/${young.id}`);
    const before = await storedBlobIds(ctx.config);
    // Seeded as deleted 31 days ago rather than waiting (the purge runs at start and hourly).
    const longAgo = new Date(Date.now() - TRASH_RETENTION_MS - 86_400_000).toISOString();
    await ctx.db.updateTable('files').set({ deleted_at: longAgo }).where('id', '=', old.id).execute();
    const { purgeExpiredTrash } = await import('./trash/service.ts');
    const garbage = { kick() {}, idle: async () => {} };
    expect(await purgeExpiredTrash({ db: ctx.db, garbage, clock: realClock }, new Date())).toBe(1);
    const ids = (await call('GET', '/api/trash')).json().data.map((t: { id: string }) => t.id);
    expect(ids).toContain(young.id);
    expect(ids).not.toContain(old.id);
    const queued = await ctx.db.selectFrom('blob_garbage').select('blob_id').execute();
    const oldChunks = before.filter((b) => queued.some((q) => q.blob_id === b));
    expect(oldChunks.length).toBeGreaterThan(0);
  });

  test('only admins empty the trash; members restore', async () => {
    const f = await uploadFile(ctx.app, token, 'bye.txt', Buffer.from('x'));
    await call('DELETE', `/api/files/${f.id}`);
    expect((await call('DELETE', '/api/trash')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/trash/${f.id}`)).statusCode).toBe(403);
    const emptied = await call('DELETE', '/api/trash', undefined, adminToken);
    expect(emptied.json().data.purgedItems).toBeGreaterThan(0);
    expect((await call('GET', '/api/trash')).json().data).toEqual([]);
    expect((await call('POST', `/api/trash/${f.id}/restore`)).statusCode).toBe(404);
  });
});

describe('search and move', () => {
  test('search finds a file three folders deep, with its folder path, case-insensitively', async () => {
    const a = await createFolder(ctx.app, token, 'Alpha');
    const b = await createFolder(ctx.app, token, 'Beta', a.id);
    const c = await createFolder(ctx.app, token, 'Gamma', b.id);
    await uploadFile(ctx.app, token, 'Deep_Treasure 100%.txt', Buffer.from('gold'), { folderId: c.id });
    await uploadFile(ctx.app, token, 'DeepXTreasure.txt', Buffer.from('lead'));
    const res = await call('GET', `/api/files/find?q=${encodeURIComponent('deep_treasure 100%')}`);
    const hits = res.json().data;
    // `_` and `%` are literal, not wildcards.
    expect(hits.map((h: FileItem) => h.name)).toEqual(['Deep_Treasure 100%.txt']);
    expect(hits[0].folderPath.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  test('moves files and folders; refuses a folder into itself and a taken name', async () => {
    const src = await createFolder(ctx.app, token, 'Src');
    const dst = await createFolder(ctx.app, token, 'Dst');
    const sub = await createFolder(ctx.app, token, 'Sub', src.id);
    const file = await uploadFile(ctx.app, token, 'm.txt', Buffer.from('m'), { folderId: src.id });
    const moved = await call('POST', '/api/files/move', { ids: [file.id, sub.id], targetFolderId: dst.id });
    expect(moved.json().data).toEqual({ moved: 2 });
    expect((await listFolder(ctx.app, token, dst.id)).map((i) => i.name)).toEqual(['Sub', 'm.txt']);

    const intoSelf = await call('POST', '/api/files/move', { ids: [dst.id], targetFolderId: sub.id });
    expect(intoSelf.statusCode).toBe(400);
    expect(intoSelf.json().code).toBe('MOVE_INTO_SELF');

    await uploadFile(ctx.app, token, 'm.txt', Buffer.from('other'), { folderId: src.id });
    const clash = await call('POST', '/api/files/move', { ids: [file.id], targetFolderId: src.id });
    expect(clash.statusCode).toBe(409);
    const toRoot = await call('POST', '/api/files/move', { ids: [sub.id], targetFolderId: null });
    expect(toRoot.statusCode).toBe(200);
    expect((await listFolder(ctx.app, token)).some((i) => i.id === sub.id)).toBe(true);
  });
});

describe('ZIP download', () => {
  test('a folder downloads as a ZIP that unzip verifies, with nested paths and empty folders', async () => {
    const top = await createFolder(ctx.app, token, 'Album');
    const inner = await createFolder(ctx.app, token, 'Raw', top.id);
    await createFolder(ctx.app, token, 'Empty', top.id);
    const big = Buffer.alloc(9 * 1024 * 1024 + 17, 7); // two chunks
    await uploadFile(ctx.app, token, 'big.bin', big, { folderId: inner.id });
    await uploadFile(ctx.app, token, 'ünïcode.txt', Buffer.from('hello'), { folderId: top.id });
    await uploadFile(ctx.app, token, 'empty.txt', Buffer.alloc(0), { folderId: top.id });

    const ticket = await call('POST', '/api/files/archive-ticket', { ids: [top.id] });
    expect(ticket.statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'GET', url: ticket.json().data.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('Album.zip');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-test-'));
    const file = path.join(dir, 'a.zip');
    fs.writeFileSync(file, res.rawPayload);
    const listing = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(listing).toContain('No errors detected');
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(names).toEqual(
      ['Album/Empty/', 'Album/Raw/big.bin', 'Album/empty.txt', 'Album/ünïcode.txt'].sort(),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an unknown archive ticket is a 403', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/files/archive?ticket=nope' });
    expect(res.statusCode).toBe(403);
  });
});

describe('thumbnails and previews', () => {
  test('a PNG gets a WebP thumbnail made once, then served from the cache', async () => {
    const file = await uploadFile(ctx.app, token, 'wide.png', await png(1600, 800));
    const res = await call('GET', `/api/files/${file.id}/thumbnail`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 160]);
    const row = await ctx.db
      .selectFrom('file_thumbnails')
      .selectAll()
      .where('file_id', '=', file.id)
      .executeTakeFirst();
    expect(row?.status).toBe('ready');
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}/thumbnail`,
      headers: { ...bearer(token), 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  test('a video gets a poster frame made by ffmpeg', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'poster-'));
    const mp4 = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360:rate=10:duration=2',
      '-pix_fmt',
      'yuv420p',
      mp4,
    ]);
    const file = await uploadFile(ctx.app, token, 'clip.mp4', fs.readFileSync(mp4));
    fs.rmSync(dir, { recursive: true, force: true });
    const res = await call('GET', `/api/files/${file.id}/thumbnail`);
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 180]);
  });

  test('a file without a picture answers 404 NO_THUMBNAIL, and a broken image too', async () => {
    const txt = await uploadFile(ctx.app, token, 'readme.txt', Buffer.from('text'));
    expect((await call('GET', `/api/files/${txt.id}/thumbnail`)).json().code).toBe('NO_THUMBNAIL');
    const broken = await uploadFile(ctx.app, token, 'broken.png', Buffer.from('not a png at all'));
    expect((await call('GET', `/api/files/${broken.id}/thumbnail`)).json().code).toBe('NO_THUMBNAIL');
  });

  test('previews are inline with their type and the sandboxing CSP; SVG and HTML never as active content', async () => {
    const img = await uploadFile(ctx.app, token, 'p.png', await png(10, 10));
    const res = await call('GET', `/api/files/${img.id}/preview`);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline/);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const svg = await uploadFile(
      ctx.app,
      token,
      'evil.svg',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      ),
    );
    const s = await call('GET', `/api/files/${svg.id}/preview`);
    expect(s.headers['content-type']).toBe('image/svg+xml');
    expect(s.headers['content-disposition']).toMatch(/^attachment/);
    expect(s.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(s.headers['x-content-type-options']).toBe('nosniff');

    const html = await uploadFile(ctx.app, token, 'page.html', Buffer.from('<script>alert(1)</script>'));
    const h = await call('GET', `/api/files/${html.id}/preview`);
    expect(h.headers['content-type']).toBe('text/plain; charset=utf-8');

    const range = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${img.id}/preview`,
      headers: { ...bearer(token), range: 'bytes=0-3' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  test('the preview takes a download ticket instead of the bearer token', async () => {
    const img = await uploadFile(ctx.app, token, 't.png', await png(4, 4));
    const t = await call('POST', `/api/files/${img.id}/download-ticket`);
    const ticket = new URL(t.json().data.url, 'http://x').searchParams.get('ticket');
    const res = await ctx.app.inject({ method: 'GET', url: `/api/files/${img.id}/preview?ticket=${ticket}` });
    expect(res.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/files/${img.id}/preview` })).statusCode).toBe(
      401,
    );
  });
});

describe('password-protected shares', () => {
  test('refused without the password and with a wrong one, served with it; the hash is not the password', async () => {
    const file = await uploadFile(ctx.app, token, 'secret.png', await png(8, 8));
    const created = await call('POST', `/api/files/${file.id}/share`, {
      accessLevel: 'public',
      password: 'open sesame',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.hasPassword).toBe(true);
    const share = created.json().data;
    const row = await ctx.db
      .selectFrom('file_shares')
      .select('password_hash')
      .where('id', '=', share.id)
      .executeTakeFirst();
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    expect(row?.password_hash).not.toContain('open sesame');

    const base = `/api/files/shared/${share.token}`;
    const none = await ctx.app.inject({ method: 'GET', url: base });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      code: 'SHARE_PASSWORD_REQUIRED',
      error: FILE_MANAGER_TEXTS.passwordRequired,
    });
    const wrong = await ctx.app.inject({ method: 'GET', url: base, headers: { 'x-share-password': 'nope' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('SHARE_PASSWORD_WRONG');
    expect((await ctx.app.inject({ method: 'GET', url: `${base}/download` })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: `${base}/thumbnail` })).statusCode).toBe(401);

    const right = { 'x-share-password': 'open sesame' };
    const info = await ctx.app.inject({ method: 'GET', url: base, headers: right });
    expect(info.json().data.name).toBe('secret.png');
    const ticket = await ctx.app.inject({ method: 'POST', url: `${base}/ticket`, headers: right });
    const dl = await ctx.app.inject({ method: 'GET', url: ticket.json().data.url });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const preview = await ctx.app.inject({ method: 'GET', url: `${base}/preview`, headers: right });
    expect(preview.headers['content-type']).toBe('image/png');
  });

  test('wrong passwords are limited per address: the eleventh guess is a 429 even with the right password', async () => {
    const file = await uploadFile(ctx.app, token, 'vault.txt', Buffer.from('v'));
    const share = (
      await call('POST', `/api/files/${file.id}/share`, { accessLevel: 'public', password: 'letmein' })
    ).json().data;
    const url = `/api/files/shared/${share.token}`;
    const guess = (p: string) =>
      ctx.app.inject({
        method: 'GET',
        url,
        headers: { 'x-share-password': p },
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < 10; i++) expect((await guess(`wrong${i}`)).statusCode).toBe(403);
    const limited = await guess('letmein');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
