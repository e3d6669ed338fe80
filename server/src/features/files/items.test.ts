import { FILES_TEXTS, type FileItem, MAX_FOLDER_DEPTH } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { storedBlobIds } from '../../test/files-store.ts';
import { createFolder, listFolder, uploadFile } from './test-helpers.ts';

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = (await ctx.signIn()).token;
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token) =>
  ctx.app.inject({ method, url, headers: bearer(as), payload: payload as object | undefined });

// On whichever store TEST_FILES_STORE names (local disk, S3, Discord).
const blobFiles = () => storedBlobIds(ctx.config);

describe('folders', () => {
  test('nested folders list folders first, with item counts, and breadcrumbs lead back to the root', async () => {
    const top = await createFolder(ctx.app, token, 'Projects');
    const mid = await createFolder(ctx.app, token, 'Guild 🛡️', top.id);
    const leaf = await createFolder(ctx.app, token, 'Raid plans', mid.id);
    await uploadFile(ctx.app, token, 'a.txt', Buffer.from('a'), { folderId: mid.id });

    const inMid = await listFolder(ctx.app, token, mid.id);
    expect(inMid.map((i) => [i.type, i.name])).toEqual([
      ['folder', 'Raid plans'],
      ['file', 'a.txt'],
    ]);
    const projects = (await listFolder(ctx.app, token)).find((i) => i.id === top.id)!;
    expect(projects.itemCount).toBe(1);

    const crumbs = await call('GET', `/api/folders/${leaf.id}/breadcrumbs`);
    expect(crumbs.json().data).toEqual([
      { id: top.id, name: 'Projects' },
      { id: mid.id, name: 'Guild 🛡️' },
      { id: leaf.id, name: 'Raid plans' },
    ]);
  });

  test('a blank name answers the spec message; names are trimmed', async () => {
    const blank = await call('POST', '/api/folders', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toContain(FILES_TEXTS.folderNameRequired);
    const trimmed = await createFolder(ctx.app, token, '  Spaced  ');
    expect(trimmed.name).toBe('Spaced');
  });

  test.each([
    ['../../x', 'must not contain "/"'],
    ['a\u0007b', 'control characters'],
    ['x'.repeat(256), 'at most 255 characters'],
    ['..', 'cannot be "." or ".."'],
  ])('refuses the hostile name %j with a clear 400', async (name, message) => {
    const res = await call('POST', '/api/folders', { name });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });

  test('a 255-character Unicode name is fine', async () => {
    const name = '名'.repeat(255);
    const folder = await createFolder(ctx.app, token, name);
    expect(folder.name).toBe(name);
  });

  test('a second folder with the same name (any case) in one folder is a 409; elsewhere it is fine', async () => {
    const parent = await createFolder(ctx.app, token, 'Dupes');
    await createFolder(ctx.app, token, 'Music', parent.id);
    const again = await call('POST', '/api/folders', { name: 'MUSIC', parentId: parent.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'NAME_TAKEN',
      error: 'An item named "MUSIC" already exists in this folder',
    });
    await createFolder(ctx.app, token, 'Music'); // at the root: another folder
  });

  test('an unknown or non-folder parent is a 404; a malformed id a 400', async () => {
    const file = await uploadFile(ctx.app, token, 'plain.txt', Buffer.from('x'));
    expect((await call('POST', '/api/folders', { name: 'x', parentId: 'nope' })).statusCode).toBe(404);
    expect((await call('POST', '/api/folders', { name: 'x', parentId: file.id })).statusCode).toBe(404);
    const bad = await call('POST', '/api/folders', { name: 'x', parentId: '../etc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('parentId is not a valid id');
    expect((await call('GET', '/api/files?folderId=unknown')).statusCode).toBe(404);
    expect((await call('GET', `/api/folders/${file.id}/breadcrumbs`)).statusCode).toBe(404);
  });

  test(`folders nest at most ${MAX_FOLDER_DEPTH} deep`, async () => {
    let parent: FileItem | undefined;
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth++) {
      parent = await createFolder(ctx.app, token, `level ${depth}`, parent?.id);
    }
    const tooDeep = await call('POST', '/api/folders', { name: 'one more', parentId: parent!.id });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error).toContain(`at most ${MAX_FOLDER_DEPTH} levels`);
  });

  test('deleting a folder trashes everything inside and its shares; purging it removes the stored chunks', async () => {
    const root = await createFolder(ctx.app, token, 'Doomed');
    const sub = await createFolder(ctx.app, token, 'Sub', root.id);
    const f1 = await uploadFile(ctx.app, token, 'one.bin', Buffer.alloc(1000, 1), { folderId: root.id });
    await uploadFile(ctx.app, token, 'two.bin', Buffer.alloc(2000, 2), { folderId: sub.id });
    const share = await call('POST', `/api/files/${f1.id}/share`, { accessLevel: 'public' });
    const shareToken = share.json().data.token as string;
    const blobsBefore = (await blobFiles()).length;

    const contents = await call('GET', `/api/folders/${root.id}/contents`);
    expect(contents.json().data).toEqual({ files: 2, folders: 1, bytes: 3000 });

    const del = await call('DELETE', `/api/folders/${root.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toEqual({ deletedFiles: 2, deletedFolders: 2 });
    expect((await listFolder(ctx.app, token)).some((i) => i.id === root.id)).toBe(false);
    expect((await call('GET', `/api/files?folderId=${sub.id}`)).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/files/shared/${shareToken}` })).statusCode).toBe(404);

    // In the trash (restorable) the bytes stay; an admin purging it has them deleted.
    expect((await call('DELETE', `/api/folders/${root.id}`)).statusCode).toBe(404);
    expect((await blobFiles()).length).toBe(blobsBefore);
    const admin = (await ctx.signIn({ access_level: 'admin' })).token;
    expect((await call('DELETE', `/api/trash/${root.id}`, undefined, admin)).statusCode).toBe(200);
    // The collector deletes the blobs in the background, soon after the rows are gone.
    await eventually(async () => expect((await blobFiles()).length).toBe(blobsBefore - 2));
  });

  test('DELETE /api/files/:id does not delete folders; DELETE /api/folders/:id does not delete files', async () => {
    const folder = await createFolder(ctx.app, token, 'Keep me');
    const file = await uploadFile(ctx.app, token, 'keep.txt', Buffer.from('k'));
    expect((await call('DELETE', `/api/files/${folder.id}`)).statusCode).toBe(400);
    expect((await call('DELETE', `/api/folders/${file.id}`)).statusCode).toBe(404);
  });
});

describe('rename and categorize', () => {
  test('renames files and folders; a taken name is a 409; changing only the case is fine', async () => {
    const folder = await createFolder(ctx.app, token, 'Renames');
    const a = await uploadFile(ctx.app, token, 'a.txt', Buffer.from('a'), { folderId: folder.id });
    await uploadFile(ctx.app, token, 'b.txt', Buffer.from('b'), { folderId: folder.id });

    const renamed = await call('PUT', `/api/files/${a.id}/rename`, { newName: '  Übersicht 2024.txt ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.name).toBe('Übersicht 2024.txt');

    const clash = await call('PUT', `/api/files/${a.id}/rename`, { newName: 'B.TXT' });
    expect(clash.statusCode).toBe(409);
    const caseOnly = await call('PUT', `/api/files/${a.id}/rename`, { newName: 'übersicht 2024.TXT' });
    expect(caseOnly.statusCode).toBe(200);

    const folderRename = await call('PUT', `/api/files/${folder.id}/rename`, { newName: 'Renamed folder' });
    expect(folderRename.json().data).toMatchObject({ type: 'folder', name: 'Renamed folder' });
  });

  test.each([
    [{ newName: '' }, 'newName: Name must not be empty'],
    [{ newName: '../../x' }, 'must not contain "/"'],
    [{ newName: 'tab\there' }, 'control characters'],
    [{ newName: 'y'.repeat(300) }, 'at most 255 characters'],
    [{ newName: 42 }, 'newName must be a string'],
    [{}, 'newName'],
  ])('rename refuses %j with a 400 naming the problem', async (body, message) => {
    const file = await uploadFile(ctx.app, token, `r-${Math.random()}.txt`, Buffer.from('r'));
    const res = await call('PUT', `/api/files/${file.id}/rename`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });

  test('renaming an unknown item is a 404', async () => {
    expect((await call('PUT', '/api/files/missing/rename', { newName: 'x' })).statusCode).toBe(404);
  });

  test('categories: categorize, list with counts, search by category; folders cannot be categorized', async () => {
    const fresh = await createTestApp();
    try {
      const { token: t } = await fresh.signIn();
      const a = await uploadFile(fresh.app, t, 'song.mp3', Buffer.from('1'));
      const b = await uploadFile(fresh.app, t, 'clip.mp4', Buffer.from('2'), { category: 'videos' });
      await uploadFile(fresh.app, t, 'misc.bin', Buffer.from('3'));
      const folder = await createFolder(fresh.app, t, 'Folder');
      const put = (id: string, category: unknown) =>
        fresh.app.inject({
          method: 'PUT',
          url: `/api/files/${id}/categorize`,
          headers: bearer(t),
          payload: { category },
        });

      expect((await put(a.id, '  music ')).json().data.category).toBe('music');
      expect((await put(folder.id, 'music')).statusCode).toBe(400);
      expect((await put(a.id, '')).statusCode).toBe(400);
      expect((await put(a.id, 'x'.repeat(51))).json().error).toContain('at most 50 characters');

      const cats = await fresh.app.inject({ url: '/api/categories', headers: bearer(t) });
      expect(cats.json().data).toEqual([
        { name: 'music', count: 1 },
        { name: 'uncategorized', count: 1 },
        { name: 'videos', count: 1 },
      ]);
      const search = await fresh.app.inject({ url: '/api/files/search?category=videos', headers: bearer(t) });
      expect(search.json().data.map((i: FileItem) => i.id)).toEqual([b.id]);
      const all = await fresh.app.inject({ url: '/api/files/search', headers: bearer(t) });
      expect(all.json().data).toHaveLength(3);
      expect(all.json().stats).toEqual({ files: 3, bytes: 3 });
    } finally {
      await fresh.close();
    }
  });
});

describe('who may do what', () => {
  test('a viewer can list and download but not change anything; signed out gets 401', async () => {
    const viewer = (await ctx.signIn({ access_level: 'viewer' })).token;
    const file = await uploadFile(ctx.app, token, 'readable.txt', Buffer.from('read me'));
    expect((await call('GET', '/api/files', undefined, viewer)).statusCode).toBe(200);
    expect((await call('GET', `/download/${file.id}`, undefined, viewer)).body).toBe('read me');
    expect((await call('POST', '/api/folders', { name: 'nope' }, viewer)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/files/${file.id}`, undefined, viewer)).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ url: '/api/files' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('AUTH_REQUIRED');
  });
});
