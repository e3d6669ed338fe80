import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { createFolder, listFolder, uploadFile } from './test-helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

test('smoke', async () => {
  const { token } = await ctx.signIn();
  const folder = await createFolder(ctx.app, token, 'Docs');
  const item = await uploadFile(ctx.app, token, 'hello.txt', Buffer.from('hello world'), { folderId: folder.id });
  console.log(item);
  console.log(await listFolder(ctx.app, token));
  const dl = await ctx.app.inject({ method: 'GET', url: `/download/${item.id}`, headers: bearer(token) });
  console.log(dl.statusCode, dl.headers, dl.body);
  const head = await ctx.app.inject({ method: 'HEAD', url: `/download/${item.id}`, headers: bearer(token) });
  console.log(head.statusCode, head.headers, JSON.stringify(head.body));
  expect(dl.body).toBe('hello world');
});
