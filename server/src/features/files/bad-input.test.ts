import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { createFolder, uploadFile } from './test-helpers.ts';

let ctx: TestContext;
let token: string;
let fileId: string;
/** A live folder share and a file in it, so the folder-share routes get bad input past the token. */
let folderToken: string;
let folderFileId: string;
/** A live upload request, so the guest routes get bad input past the link check. */
let requestToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = (await ctx.signIn({ access_level: 'admin' })).token;
  fileId = (await uploadFile(ctx.app, token, 'target.txt', Buffer.from('t'))).id;
  const folder = await createFolder(ctx.app, token, 'swept');
  folderFileId = (await uploadFile(ctx.app, token, 'in.txt', Buffer.from('i'), { folderId: folder.id })).id;
  const share = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${folder.id}/share`,
    headers: bearer(token),
    payload: { accessLevel: 'public' },
  });
  folderToken = share.json().data.token;
  const request = await ctx.app.inject({
    method: 'POST',
    url: '/api/upload-requests',
    headers: bearer(token),
    payload: {
      folderId: folder.id,
      maxTotalBytes: 1024,
      maxFiles: 2,
      expiresAt: new Date(Date.now() + 24 * 60 * 60_000).toISOString(),
    },
  });
  requestToken = request.json().data.token;
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const ID = ':id';
/** Every route of the feature, with `:id` standing for a path parameter. */
const ROUTES: [Method, string][] = [
  ['GET', '/api/files'],
  ['GET', '/api/files/search'],
  ['GET', '/api/categories'],
  ['GET', '/api/files/limits'],
  ['GET', `/api/folders/${ID}/breadcrumbs`],
  ['GET', `/api/folders/${ID}/contents`],
  ['POST', '/api/folders'],
  ['DELETE', `/api/folders/${ID}`],
  ['DELETE', `/api/files/${ID}`],
  ['PUT', `/api/files/${ID}/rename`],
  ['PUT', `/api/files/${ID}/categorize`],
  ['POST', '/upload'],
  ['GET', `/upload/status/${ID}`],
  ['POST', '/upload/complete'],
  ['POST', `/api/files/${ID}/download-ticket`],
  ['GET', `/download/${ID}`],
  ['POST', `/api/files/${ID}/share`],
  ['GET', `/api/files/${ID}/shares`],
  ['PATCH', `/api/files/shares/${ID}`],
  ['DELETE', `/api/files/shares/${ID}`],
  ['GET', `/api/files/shared/${ID}`],
  ['POST', `/api/files/shared/${ID}/ticket`],
  ['GET', `/api/files/shared/${ID}/download`],
  // Folder shares (issue 45)
  ['GET', `/api/files/shared/${ID}/files`],
  ['POST', `/api/files/shared/${ID}/files/${ID}/ticket`],
  ['GET', `/api/files/shared/${ID}/files/${ID}/download`],
  ['GET', `/api/files/shared/${ID}/files/${ID}/thumbnail`],
  ['POST', `/api/files/shared/${ID}/archive-ticket`],
  ['GET', `/api/files/shared/${ID}/archive`],
  // Upload requests (issue 45): the owner's routes and a guest's
  ['POST', '/api/upload-requests'],
  ['GET', '/api/upload-requests'],
  ['POST', `/api/upload-requests/${ID}/close`],
  ['GET', `/api/requests/${ID}`],
  ['POST', `/api/requests/${ID}/uploads`],
  ['PATCH', `/api/requests/${ID}/uploads/${ID}`],
  ['DELETE', `/api/requests/${ID}/uploads/${ID}`],
  ['POST', `/api/requests/${ID}/uploads/${ID}/complete`],
];

const IDS = [
  'nope',
  '..%2F..%2Fetc',
  '%00',
  'x'.repeat(600),
  '%E2%80%AE',
  "'%20OR%201=1--",
  '%F0%9F%98%80',
  '-',
];
const BODIES: unknown[] = [
  '{"broken json',
  '[]',
  'null',
  '"text"',
  '{"name": {"$gt": ""}, "newName": [], "category": 1, "accessLevel": null, "fileId": 5}',
  `{"name": "${'n'.repeat(5000)}"}`,
  // Share edits (issue 45): limits and texts of the wrong kind and size
  '{"maxDownloads": 1e300, "title": "a\\u0000b", "note": 7, "password": "", "expiresAt": "yesterday"}',
  `{"maxDownloads": -1, "title": "${'t'.repeat(500)}", "note": null, "password": null, "accessLevel": "public"}`,
];
const QUERIES = [
  '?folderId=../x',
  '?category=%00',
  `?folderId=${'y'.repeat(300)}`,
  `?ticket=${'t'.repeat(200)}`,
  '?folderId[]=a',
];

describe('bad input on every files and shares route', () => {
  test.each(ROUTES)('%s %s never answers 5xx, and 4xx always says why', async (method, route) => {
    const urls = IDS.map((id) => route.replaceAll(ID, id));
    if (route.includes(ID)) urls.push(route.replaceAll(ID, fileId));
    if (route.startsWith(`/api/files/shared/${ID}`)) {
      const live = route.replace(ID, folderToken);
      urls.push(...[...IDS, folderFileId].map((id) => live.replaceAll(ID, id)));
    }
    if (route.startsWith(`/api/requests/${ID}`)) {
      const live = route.replace(ID, requestToken);
      urls.push(...[...IDS, fileId].map((id) => live.replaceAll(ID, id)));
    }
    for (const url of urls) {
      for (const query of ['', ...QUERIES]) {
        const bodies = method === 'GET' || method === 'DELETE' ? [undefined] : BODIES;
        for (const body of bodies) {
          const res = await ctx.app.inject({
            method,
            url: url + query,
            headers: {
              ...bearer(token),
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            payload: body as string | undefined,
          });
          const where = `${method} ${url}${query} ${String(body).slice(0, 40)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400 && res.headers['content-type']?.includes('json')) {
            const json = res.json() as { success: boolean; error: string };
            expect(json.success, where).toBe(false);
            expect(json.error.length, where).toBeGreaterThan(3);
          }
        }
      }
    }
  });
});
