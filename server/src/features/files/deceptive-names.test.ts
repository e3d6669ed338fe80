import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { startUpload, uploadFile } from './test-helpers.ts';

const MESSAGE = 'must not contain invisible or text-direction characters';
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ token } = await ctx.signIn({ access_level: 'user' }));
});
afterAll(() => ctx.close());

/** Issue 15: a name that displays as something else never reaches a listing or a download. */
describe('deceptive names are refused on every way in', () => {
  it('upload completion', async () => {
    const start = await startUpload(ctx.app, token, Buffer.from('MZ'), { name: 'evil\u202egpj.exe' });
    const { fileId, totalChunks } = start.json() as { fileId: string; totalChunks: number };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/upload/complete',
      headers: bearer(token),
      payload: { fileId, fileName: 'evil\u202egpj.exe', fileSize: 2, totalChunks },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(MESSAGE);
  });

  it('rename and new folder', async () => {
    const file = await uploadFile(ctx.app, token, 'fine.txt', Buffer.from('hi'));
    const rename = await ctx.app.inject({
      method: 'PUT',
      url: `/api/files/${file.id}/rename`,
      headers: bearer(token),
      payload: { newName: 'fi\ufeffne.txt' },
    });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().error).toContain(MESSAGE);
    const folder = await ctx.app.inject({
      method: 'POST',
      url: '/api/folders',
      headers: bearer(token),
      payload: { name: 'a\u200bb', parentId: null },
    });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().error).toContain(MESSAGE);
  });

  it('stores names in NFC, so the same name typed two ways is one name', async () => {
    const first = await uploadFile(ctx.app, token, 'Cafe\u0301.txt', Buffer.from('1'));
    expect(first.name).toBe('Café.txt');
  });
});
