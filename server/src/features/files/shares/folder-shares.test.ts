import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileItem, FileShare, SharedFolderFile } from '@guildhall/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { createFolder, uploadFile } from '../test-helpers.ts';

/** Folder shares (issue 45; docs/files.md "Folder shares"). */

let ctx: TestContext;
let token: string;
let folder: FileItem;
let png: Buffer;
const files: Record<string, Buffer> = {};
const tmp = mkdtempSync(join(tmpdir(), 'folder-share-'));

beforeAll(async () => {
  ctx = await createTestApp({ DOWNLOADS_PER_ADDRESS: '64' });
  token = (await ctx.signIn()).token;
  folder = await createFolder(ctx.app, token, 'Holiday');
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
  files['photo.png'] = png;
  files['notes.txt'] = Buffer.from('first notes\n');
  files['data.bin'] = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  for (const [name, bytes] of Object.entries(files)) {
    await uploadFile(ctx.app, token, name, bytes, { folderId: folder.id });
  }
  // A subfolder's files are not part of the folder's share.
  const sub = await createFolder(ctx.app, token, 'inner', folder.id);
  await uploadFile(ctx.app, token, 'hidden.txt', Buffer.from('not shared'), { folderId: sub.id });
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await ctx.close();
});

async function shareFolder(body: Record<string, unknown>, id = folder.id): Promise<FileShare> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${id}/share`,
    headers: bearer(token),
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`share failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url, headers, remoteAddress: '203.0.113.9' });
const listOf = async (t: string, headers: Record<string, string> = {}) => {
  const res = await get(`/api/files/shared/${t}/files`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as SharedFolderFile[];
};
/** The ZIP's entry names, after `unzip -t` found it sound. */
function zipNames(bytes: Buffer): string[] {
  const path = join(tmp, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  const test = execFileSync('unzip', ['-t', path], { encoding: 'utf8' });
  expect(test).toContain('No errors detected');
  return execFileSync('zipinfo', ['-1', path], { encoding: 'utf8' }).trim().split('\n').sort();
}

describe('a folder share', () => {
  test('opens signed out, lists its files, serves one with the same bytes and all as a valid ZIP', async () => {
    const s = await shareFolder({ accessLevel: 'public' });
    const info = await get(`/api/files/shared/${s.token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ kind: 'folder', name: 'Holiday' });
    expect(info.json().data.size).toBe(Object.values(files).reduce((n, b) => n + b.length, 0));

    const listed = await listOf(s.token);
    expect(listed.map((f) => [f.name, f.size])).toEqual([
      ['data.bin', files['data.bin']!.length],
      ['notes.txt', files['notes.txt']!.length],
      ['photo.png', png.length],
    ]);

    const bin = listed.find((f) => f.name === 'data.bin')!;
    const one = await get(`/api/files/shared/${s.token}/files/${bin.id}/download`);
    expect(one.statusCode).toBe(200);
    expect(one.rawPayload.equals(files['data.bin']!)).toBe(true);

    const photo = listed.find((f) => f.name === 'photo.png')!;
    const thumb = await get(`/api/files/shared/${s.token}/files/${photo.id}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');

    const zip = await get(`/api/files/shared/${s.token}/archive`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zipNames(zip.rawPayload)).toEqual(['data.bin', 'notes.txt', 'photo.png']);

    // The folder's own bytes routes of a file share are not for folders, and the reverse.
    expect((await get(`/api/files/shared/${s.token}/download`)).statusCode).toBe(404);
  });

  test('files added later appear; trashed ones and other folders\u2019 files are not served', async () => {
    const s = await shareFolder({ accessLevel: 'public' });
    const added = await uploadFile(ctx.app, token, 'later.txt', Buffer.from('added later'), {
      folderId: folder.id,
    });
    expect((await listOf(s.token)).map((f) => f.name)).toContain('later.txt');
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${added.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    expect((await listOf(s.token)).map((f) => f.name)).not.toContain('later.txt');
    expect((await get(`/api/files/shared/${s.token}/files/${added.id}/download`)).statusCode).toBe(404);
    // A file elsewhere, even in a subfolder, is the share's 404.
    const other = await uploadFile(ctx.app, token, 'elsewhere.txt', Buffer.from('x'));
    expect((await get(`/api/files/shared/${s.token}/files/${other.id}/download`)).statusCode).toBe(404);
    const zip = await get(`/api/files/shared/${s.token}/archive`);
    expect(zipNames(zip.rawPayload)).toEqual(['data.bin', 'notes.txt', 'photo.png']);
  });

  test('a password folder share needs its password on every call; a ticket serves the ZIP', async () => {
    const s = await shareFolder({ accessLevel: 'public', password: 'open sesame' });
    for (const path of ['', '/files', '/archive']) {
      const res = await get(`/api/files/shared/${s.token}${path}`);
      expect(res.statusCode, path).toBe(401);
      expect(res.json().code).toBe('SHARE_PASSWORD_REQUIRED');
    }
    const pw = { 'x-share-password': 'open sesame' };
    const listed = await listOf(s.token, pw);
    expect(listed).toHaveLength(3);
    const noPw = await get(`/api/files/shared/${s.token}/files/${listed[0]!.id}/download`);
    expect(noPw.statusCode).toBe(401);
    const ticket = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/shared/${s.token}/archive-ticket`,
      headers: pw,
    });
    expect(ticket.statusCode).toBe(200);
    const zip = await get(ticket.json().data.url);
    expect(zip.statusCode).toBe(200);
    expect(zipNames(zip.rawPayload)).toHaveLength(3);
  });

  test('a limited folder share counts a ZIP or one file as one download each, then says the limit is reached', async () => {
    const s = await shareFolder({ accessLevel: 'public', maxDownloads: 2 });
    const listed = await listOf(s.token);
    const head = await ctx.app.inject({ method: 'HEAD', url: `/api/files/shared/${s.token}/archive` });
    expect(head.statusCode).toBeLessThan(300);
    expect((await get(`/api/files/shared/${s.token}/archive`)).statusCode).toBe(200);
    const one = await get(`/api/files/shared/${s.token}/files/${listed[1]!.id}/download`);
    expect(one.statusCode).toBe(200);
    const shares = await ctx.app.inject({ url: `/api/files/${folder.id}/shares`, headers: bearer(token) });
    const mine = (shares.json().data as FileShare[]).find((x) => x.id === s.id)!;
    expect(mine).toMatchObject({ downloadCount: 2, state: 'limit_reached' });
    for (const path of ['/archive', `/files/${listed[0]!.id}/download`, '/files', '']) {
      const res = await get(`/api/files/shared/${s.token}${path}`);
      expect(res.statusCode, path).toBe(410);
      expect(res.json().code).toBe('SHARE_LIMIT_REACHED');
    }
  });
});
