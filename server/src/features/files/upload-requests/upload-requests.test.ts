import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHUNK_SIZE_BYTES,
  GUEST_UPLOADS_OPEN_PER_REQUEST,
  GUEST_UPLOADS_PER_ADDRESS_PER_HOUR,
  NOTICE_TEXTS,
  SHARE_PASSWORD_HEADER,
  TUS_VERSION,
  UPLOAD_REQUEST_TEXTS,
  UPLOAD_REQUESTS_PER_MEMBER,
  uploadRequestTusPath,
} from '@guildhall/common';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { createFolder, listFolder, uploadFile } from '../test-helpers.ts';

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const inDays = (d: number) => new Date(Date.now() + d * 24 * 60 * 60_000).toISOString();

let ctx: TestContext;
let base: string;
let owner: { token: string; userId: string };
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.signIn({ access_level: 'user', username: 'olivia' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

type Made = { id: string; token: string; url: string; folderId: string };

async function makeRequest(
  token: string,
  body: Record<string, unknown> & { folderId: string },
): Promise<Made> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/upload-requests',
    headers: bearer(token),
    payload: { maxTotalBytes: 5 * MiB, maxFiles: 10, expiresAt: inDays(7), ...body },
  });
  if (res.statusCode !== 201) throw new Error(`request failed: ${res.statusCode} ${res.body}`);
  return res.json().data as Made;
}

const tusHeaders = (extra: Record<string, string> = {}) => ({ 'tus-resumable': TUS_VERSION, ...extra });
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** A guest's tus creation, signed out (fetch, no session). */
function createGuestUpload(token: string, size: number, name: string, extra: Record<string, string> = {}) {
  return fetch(`${base}${uploadRequestTusPath(token)}`, {
    method: 'POST',
    headers: tusHeaders({
      'upload-length': String(size),
      'upload-metadata': meta({ filename: name }),
      ...extra,
    }),
  });
}

/** A PATCH that sends `bytes` of the body and then drops the connection (a guest's network failing). */
function cutPatch(location: string, body: Buffer, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${location}`, {
      method: 'PATCH',
      headers: tusHeaders({
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
        'content-length': String(body.length),
      }),
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, bytes), () => setImmediate(() => req.destroy()));
  });
}

/** tus-js-client in Node, signed out, as the guest page drives it; resumes `uploadUrl` when given. */
function guestTus(
  token: string,
  content: Buffer,
  name: string,
  opts: { uploadUrl?: string; headers?: Record<string, string> } = {},
): Promise<{ url: string } | { status: number; body: string }> {
  return new Promise((resolve) => {
    const upload = new tus.Upload(content, {
      endpoint: `${base}${uploadRequestTusPath(token)}`,
      ...(opts.uploadUrl ? { uploadUrl: opts.uploadUrl } : {}),
      chunkSize: CHUNK_SIZE_BYTES,
      metadata: { filename: name, filetype: 'application/octet-stream' },
      headers: opts.headers ?? {},
      retryDelays: [],
      onError: (err) => {
        const res = (err as tus.DetailedError).originalResponse;
        resolve({ status: res?.getStatus() ?? 0, body: res?.getBody() ?? String(err) });
      },
      onSuccess: () => resolve({ url: upload.url! }),
    });
    upload.start();
  });
}

async function receipt(uploadUrl: string, headers: Record<string, string> = {}) {
  const path = new URL(uploadUrl, base).pathname;
  return fetch(`${base}${path}/complete`, { method: 'POST', headers });
}

describe('upload requests (issue 45): a guest uploads into a member folder', () => {
  test('must-show: 5 MiB link, a signed-out guest sends 3 MiB (interrupted once, resumed), a second 3 MiB is refused; the owner sees the file, a notice, and their quota counts it', async () => {
    const folder = await createFolder(ctx.app, owner.token, 'From clients');
    const request = await makeRequest(owner.token, {
      folderId: folder.id,
      title: 'Scans for the tax return',
      note: 'Please send the PDF scans here.',
      maxTotalBytes: 5 * MiB,
      notify: true,
    });
    expect(request.url).toMatch(/\/request\/[A-Za-z0-9_-]{32}$/);

    // The guest's page, signed out: the texts and the room, nothing of the folder.
    const info = await fetch(`${base}/api/requests/${request.token}`);
    expect(info.status).toBe(200);
    const infoBody = await info.json();
    expect(infoBody.data).toMatchObject({
      title: 'Scans for the tax return',
      note: 'Please send the PDF scans here.',
      ownerName: 'olivia',
      bytesLeft: 5 * MiB,
      filesLeft: 10,
    });
    expect(JSON.stringify(infoBody)).not.toContain('From clients');
    expect(JSON.stringify(infoBody)).not.toContain(folder.id);

    // First file: created, then the connection drops after 1.5 MiB.
    const first = randomBytes(3 * MiB);
    const created = await createGuestUpload(request.token, first.length, 'scan-1.pdf');
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/api/requests/${request.token}/uploads/[0-9a-f-]{36}$`));
    await cutPatch(location, first, 1.5 * MiB);
    // The half-sent chunk was not kept: the server says the upload stands at 0.
    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: tusHeaders() });
    expect(head.headers.get('upload-offset')).toBe('0');
    // tus-js-client resumes the same upload: it asks the server for the offset, then sends the rest.
    const resumed = await guestTus(request.token, first, 'scan-1.pdf', { uploadUrl: `${base}${location}` });
    expect(resumed).toEqual({ url: `${base}${location}` });
    const got = await receipt(location);
    expect(got.status).toBe(200);
    const r = (await got.json()).data;
    expect(r).toMatchObject({ name: 'scan-1.pdf', size: 3 * MiB, sha256: sha256(first) });

    // Second file of 3 MiB: 2 MiB left, refused at creation with the limit's message.
    const second = await guestTus(request.token, randomBytes(3 * MiB), 'scan-2.pdf');
    expect(second).toMatchObject({ status: 413 });
    const refusal = JSON.parse((second as { body: string }).body);
    expect(refusal).toEqual({
      success: false,
      code: 'UPLOAD_REQUEST_FULL',
      error: UPLOAD_REQUEST_TEXTS.totalExceeded(5 * MiB, 2 * MiB),
    });
    expect(refusal.error).toBe('This upload link takes at most 5 MB in all; 2 MB left');

    // The owner: the file in the folder (and only it), the request's counts, a notice, the quota.
    const listed = await listFolder(ctx.app, owner.token, folder.id);
    expect(listed.map((f) => [f.name, f.size])).toEqual([['scan-1.pdf', 3 * MiB]]);
    const mine = await ctx.app.inject({ url: '/api/upload-requests', headers: bearer(owner.token) });
    expect(mine.json().data[0]).toMatchObject({
      id: request.id,
      state: 'open',
      filesReceived: 1,
      bytesReceived: 3 * MiB,
      folderName: 'From clients',
    });
    const notices = await ctx.app.inject({ url: '/api/notices', headers: bearer(owner.token) });
    expect(notices.json().unread).toBe(1);
    expect(notices.json().data[0]).toMatchObject({
      kind: 'request_upload',
      text: NOTICE_TEXTS.requestReceived('scan-1.pdf', 'Scans for the tax return'),
      link: `/filesystem?folder=${folder.id}`,
    });
    const usage = await ctx.app.inject({ url: '/api/files/usage', headers: bearer(owner.token) });
    expect(usage.json().data.usedBytes).toBe(3 * MiB);
    // The bytes are the file the guest sent.
    const ticket = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${listed[0]!.id}/download-ticket`,
      headers: bearer(owner.token),
    });
    const download = await fetch(`${base}${ticket.json().data.url}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(first));
  });

  test("every byte counts against the owner's quota: a guest upload past it is refused (507 QUOTA_EXCEEDED)", async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    const folder = await createFolder(ctx.app, member.token, 'quota-bound');
    await uploadFile(ctx.app, member.token, 'own.bin', randomBytes(MiB), { folderId: folder.id });
    const admin = await ctx.signIn({ access_level: 'admin' });
    const quota = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/storage/${member.userId}`,
      headers: bearer(admin.token),
      payload: { quotaBytes: 2 * MiB },
    });
    expect(quota.statusCode).toBe(200);
    const request = await makeRequest(member.token, { folderId: folder.id, maxTotalBytes: 10 * MiB });
    const refused = await createGuestUpload(request.token, 1.5 * MiB, 'big.bin');
    expect(refused.status).toBe(507);
    expect((await refused.json()).code).toBe('QUOTA_EXCEEDED');
    const fits = await guestTus(request.token, randomBytes(MiB), 'fits.bin');
    expect(fits).toHaveProperty('url');
  });

  test('a password, allowed types and the file count are enforced; the owner closes the link and uploads stop at once', async () => {
    const folder = await createFolder(ctx.app, owner.token, 'Guarded');
    const request = await makeRequest(owner.token, {
      folderId: folder.id,
      password: 'open sesame',
      allowedTypes: ['.pdf', 'image/*'],
      maxFiles: 1,
    });
    const noPassword = await fetch(`${base}/api/requests/${request.token}`);
    expect(noPassword.status).toBe(401);
    expect((await noPassword.json()).code).toBe('SHARE_PASSWORD_REQUIRED');
    const pw = { [SHARE_PASSWORD_HEADER]: 'open sesame' };
    expect((await fetch(`${base}/api/requests/${request.token}`, { headers: pw })).status).toBe(200);

    const wrongType = await createGuestUpload(request.token, 10, 'notes.txt', pw);
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toMatchObject({
      code: 'UPLOAD_TYPE_REFUSED',
      error: 'This upload link takes only .pdf, image/*',
    });
    const ok = await guestTus(request.token, randomBytes(1000), 'a.pdf', { headers: pw });
    expect(ok).toHaveProperty('url');
    expect((await receipt((ok as { url: string }).url, pw)).status).toBe(200);
    const second = await createGuestUpload(request.token, 10, 'b.pdf', pw);
    expect(second.status).toBe(413);
    expect((await second.json()).error).toBe(UPLOAD_REQUEST_TEXTS.filesExceeded(1));

    // A second link: an upload under way when the owner closes it gets no further.
    const open = await makeRequest(owner.token, { folderId: folder.id });
    const content = randomBytes(2 * MiB);
    const started = await createGuestUpload(open.token, content.length, 'late.bin');
    const location = started.headers.get('location')!;
    const closed = await ctx.app.inject({
      method: 'POST',
      url: `/api/upload-requests/${open.id}/close`,
      headers: bearer(owner.token),
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.state).toBe('closed');
    const patch = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: tusHeaders({ 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }),
      body: content,
    });
    expect(patch.status).toBe(404);
    expect((await patch.json()).error).toBe(UPLOAD_REQUEST_TEXTS.notFound);
    expect((await fetch(`${base}/api/requests/${open.token}`)).status).toBe(404);
    expect((await listFolder(ctx.app, owner.token, folder.id)).map((f) => f.name)).toEqual(['a.pdf']);
  });

  test("a link points only at the member's own folder; a member has a bounded number of open links", async () => {
    const other = await ctx.signIn({ access_level: 'user' });
    const theirs = await createFolder(ctx.app, other.token, 'not-olivias');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/upload-requests',
      headers: bearer(owner.token),
      payload: { folderId: theirs.id, maxTotalBytes: MiB, maxFiles: 1, expiresAt: inDays(1) },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FOLDER_NOT_OWNED',
      error: UPLOAD_REQUEST_TEXTS.folderNotYours,
    });

    const busy = await ctx.signIn({ access_level: 'user' });
    const folder = await createFolder(ctx.app, busy.token, 'many');
    for (let i = 0; i < UPLOAD_REQUESTS_PER_MEMBER; i++)
      await makeRequest(busy.token, { folderId: folder.id });
    const over = await ctx.app.inject({
      method: 'POST',
      url: '/api/upload-requests',
      headers: bearer(busy.token),
      payload: { folderId: folder.id, maxTotalBytes: MiB, maxFiles: 1, expiresAt: inDays(1) },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      code: 'TOO_MANY_UPLOAD_REQUESTS',
      error: UPLOAD_REQUEST_TEXTS.tooMany,
    });
  });

  test('abuse limits: uploads at once on one link, and uploads started from one address per hour', async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    const folder = await createFolder(ctx.app, member.token, 'limits');
    const request = await makeRequest(member.token, {
      folderId: folder.id,
      maxTotalBytes: 100 * MiB,
      maxFiles: 100,
    });
    const answers = [];
    for (let i = 0; i <= GUEST_UPLOADS_OPEN_PER_REQUEST; i++) {
      answers.push(await createGuestUpload(request.token, MiB, `open-${i}.bin`));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(GUEST_UPLOADS_OPEN_PER_REQUEST).fill(201), 429]);
    expect(await answers.at(-1)!.json()).toMatchObject({
      code: 'TOO_MANY_GUEST_UPLOADS',
      error: UPLOAD_REQUEST_TEXTS.tooManyOpen,
    });
    // This address has started GUEST_UPLOADS_OPEN_PER_REQUEST + 1 here and more in the tests above;
    // the hour's budget runs out, whatever link it is spent on.
    let last: Response | null = null;
    for (let i = 0; i < GUEST_UPLOADS_PER_ADDRESS_PER_HOUR; i++) {
      last = await createGuestUpload(request.token, MiB, 'again.bin');
      if (last.status === 429 && (await last.clone().json()).error.includes('your address')) break;
    }
    expect(last!.status).toBe(429);
    const body = await last!.json();
    expect(body.code).toBe('TOO_MANY_GUEST_UPLOADS');
    expect(body.error).toMatch(/^Too many uploads from your address to upload links; try again in \d+ s$/);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
