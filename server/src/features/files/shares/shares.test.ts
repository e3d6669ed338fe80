import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FILES_TEXTS, type FileItem, type FileShare, SECURITY_DEFAULTS } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { manualClock } from '../../../test/manual-clock.ts';
import { createFolder, uploadFile } from '../test-helpers.ts';

let ctx: TestContext;
let token: string;
let file: FileItem;
const content = Buffer.from('shared bytes, exactly these');

beforeAll(async () => {
  // 40 downloads at once from one loopback address test the counting, not the per-address download cap.
  ctx = await createTestApp({ DOWNLOADS_PER_ADDRESS: '64' });
  token = (await ctx.signIn()).token;
  file = await uploadFile(ctx.app, token, 'shared.txt', content);
});
afterAll(() => ctx.close());

async function share(body: Record<string, unknown>, fileId = file.id): Promise<FileShare> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${fileId}/share`,
    headers: bearer(token),
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`share failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
const info = (t: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url: `/api/files/shared/${t}`, headers });
const download = (t: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url: `/api/files/shared/${t}/download`, headers });
const countOf = async (shareId: string) =>
  (
    await ctx.db
      .selectFrom('file_shares')
      .select('download_count')
      .where('id', '=', shareId)
      .executeTakeFirstOrThrow()
  ).download_count;

describe('creating and listing shares', () => {
  test('a share has a 192-bit token, a URL, its level, expiry and a zero count', async () => {
    const s = await share({ accessLevel: 'public' });
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 32 base64url characters = 192 bits
    expect(s.url).toMatch(new RegExp(`^http://localhost(:80)?/shared/${s.token}$`));
    expect(s).toMatchObject({ accessLevel: 'public', expiresAt: null, downloadCount: 0 });
    const other = await share({ accessLevel: 'public' });
    expect(other.token).not.toBe(s.token);
  });

  test('with PUBLIC_URL set, share URLs use it', async () => {
    const own = await createTestApp({ PUBLIC_URL: 'https://guild.example.org/' });
    try {
      const t = (await own.signIn()).token;
      const f = await uploadFile(own.app, t, 'x.txt', Buffer.from('x'));
      const res = await own.app.inject({
        method: 'POST',
        url: `/api/files/${f.id}/share`,
        headers: bearer(t),
        payload: { accessLevel: 'public' },
      });
      expect(res.json().data.url).toBe(`https://guild.example.org/shared/${res.json().data.token}`);
    } finally {
      await own.close();
    }
  });

  test('the existing shares of a file include expired ones, newest first, not revoked ones', async () => {
    const f = await uploadFile(ctx.app, token, 'listed.txt', Buffer.from('l'));
    const a = await share({ accessLevel: 'public' }, f.id);
    const b = await share(
      { accessLevel: 'user', expiresAt: new Date(Date.now() + 60_000).toISOString() },
      f.id,
    );
    await ctx.db
      .updateTable('file_shares')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', b.id)
      .execute();
    const c = await share({ accessLevel: 'public' }, f.id);
    await ctx.app.inject({ method: 'DELETE', url: `/api/files/shares/${c.id}`, headers: bearer(token) });
    const res = await ctx.app.inject({ url: `/api/files/${f.id}/shares`, headers: bearer(token) });
    expect(
      res
        .json()
        .data.map((s: FileShare) => s.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
  });

  test.each([
    [{ accessLevel: 'everyone' }, 400, 'accessLevel must be user or public'],
    [{}, 400, 'accessLevel'],
    [{ accessLevel: 'public', expiresAt: 'next week' }, 400, 'expiresAt must be an ISO timestamp'],
    [{ accessLevel: 'public', expiresAt: '2001-01-01T00:00:00Z' }, 400, 'expiresAt must be in the future'],
  ])('%j is refused', async (body, status, message) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${file.id}/share`,
      headers: bearer(token),
      payload: body,
    });
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toContain(message);
  });

  test('folders can be shared (issue 45, folder-shares.test.ts); unknown files are 404', async () => {
    const folder = await createFolder(ctx.app, token, 'Shareable');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${folder.id}/share`,
      headers: bearer(token),
      payload: { accessLevel: 'public' },
    });
    expect(res.statusCode).toBe(201);
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/files/nope/share',
      headers: bearer(token),
      payload: { accessLevel: 'public' },
    });
    expect(missing.statusCode).toBe(404);
  });

  test('managing shares needs level user', async () => {
    const viewer = (await ctx.signIn({ access_level: 'viewer' })).token;
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${file.id}/share`,
      headers: bearer(viewer),
      payload: { accessLevel: 'public' },
    });
    expect(res.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: `/api/files/${file.id}/shares` })).statusCode).toBe(401);
  });
});

describe('the shared link', () => {
  test('a public share works signed out: info and download', async () => {
    const s = await share({ accessLevel: 'public' });
    const i = await info(s.token);
    expect(i.statusCode).toBe(200);
    expect(i.json().data).toEqual({
      kind: 'file',
      name: 'shared.txt',
      size: content.length,
      accessLevel: 'public',
      downloadCount: 0,
      createdAt: file.createdAt,
      title: null,
      note: null,
      maxDownloads: null,
    });
    const d = await download(s.token);
    expect(d.statusCode).toBe(200);
    expect(d.rawPayload.equals(content)).toBe(true);
    expect(d.headers['content-disposition']).toBe('attachment; filename=shared.txt');
  });

  test('a user share answers signed-out callers with AUTH_REQUIRED and the spec message', async () => {
    const s = await share({ accessLevel: 'user' });
    for (const res of [
      await info(s.token),
      await download(s.token),
      await info(s.token, bearer('expired-or-bogus')),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        code: 'AUTH_REQUIRED',
        error: FILES_TEXTS.sharedAuthRequired,
      });
    }
    expect((await info(s.token, bearer(token))).statusCode).toBe(200);
    expect((await download(s.token, bearer(token))).rawPayload.equals(content)).toBe(true);
    const pending = (await ctx.signIn({ is_approved: 0 })).token;
    expect((await info(s.token, bearer(pending))).statusCode).toBe(403);
  });

  test('a user share downloads in the browser through a ticket bound to the share', async () => {
    const s = await share({ accessLevel: 'user' });
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/files/shared/${s.token}/ticket` })).statusCode,
    ).toBe(401);
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/shared/${s.token}/ticket`,
      headers: bearer(token),
    });
    const { url } = issued.json().data;
    expect(url).toMatch(new RegExp(`^/api/files/shared/${s.token}/download\\?ticket=`));
    const res = await ctx.app.inject({ url });
    expect(res.rawPayload.equals(content)).toBe(true);
    const ticket = url.split('ticket=')[1];
    const other = await share({ accessLevel: 'user' });
    const elsewhere = await ctx.app.inject({
      url: `/api/files/shared/${other.token}/download?ticket=${ticket}`,
    });
    expect(elsewhere.statusCode).toBe(403);
  });

  test('revoked, expired, deleted-file, unknown and malformed links are all 404', async () => {
    const revoked = await share({ accessLevel: 'public' });
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/shares/${revoked.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    expect(
      (
        await ctx.app.inject({
          method: 'DELETE',
          url: `/api/files/shares/${revoked.id}`,
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(404);

    const expired = await share({
      accessLevel: 'public',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await ctx.db
      .updateTable('file_shares')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', expired.id)
      .execute();

    const doomed = await uploadFile(ctx.app, token, 'doomed.txt', Buffer.from('d'));
    const orphaned = await share({ accessLevel: 'public' }, doomed.id);
    await ctx.app.inject({ method: 'DELETE', url: `/api/files/${doomed.id}`, headers: bearer(token) });

    for (const t of [
      revoked.token,
      expired.token,
      orphaned.token,
      'A'.repeat(32),
      '../../etc',
      '%00',
      'x'.repeat(300),
    ]) {
      for (const res of [await info(encodeURIComponent(t)), await download(encodeURIComponent(t))]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toContain('expired, been revoked, or never existed');
      }
    }
  });
});

/**
 * The count once every download has ended on the client's side. A download is counted before its last
 * byte leaves the server, so a client holding the whole file already sees it counted: no waiting, and
 * a count that landed late (or twice) fails here.
 */
async function settled(shareId: string, expected: number): Promise<void> {
  expect(await countOf(shareId)).toBe(expected);
}

describe('downloadCount', () => {
  test('only a real, whole download counts: not the info call, HEAD, a partial range or a link preview', async () => {
    const s = await share({ accessLevel: 'public' });
    await info(s.token);
    await ctx.app.inject({ method: 'HEAD', url: `/api/files/shared/${s.token}/download` });
    await download(s.token, { range: 'bytes=0-3' });
    await download(s.token, {
      'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    });
    await download(s.token, { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    expect(await countOf(s.id)).toBe(0);

    await download(s.token);
    await download(s.token, { range: `bytes=4-` }); // a resumed download delivers the last byte: counts
    await settled(s.id, 2);
    expect((await info(s.token)).json().data.downloadCount).toBe(2);
  });

  test('concurrent downloads of one share over real HTTP are each counted exactly once', async () => {
    const big = await uploadFile(ctx.app, token, 'popular.bin', Buffer.alloc(3 * 1024 * 1024, 5));
    const s = await share({ accessLevel: 'public' }, big.id);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: false, maxSockets: 50 });
    // As many at once as one address may open (issue 26: more answer 429, download-limits.test.ts).
    const N = SECURITY_DEFAULTS.downloadsPerAddress;
    const sizes = await Promise.all(
      Array.from(
        { length: N },
        () =>
          new Promise<number>((resolve, reject) => {
            http
              .get(
                { host: '127.0.0.1', port, path: `/api/files/shared/${s.token}/download`, agent },
                (res) => {
                  let n = 0;
                  res.on('data', (c: Buffer) => {
                    n += c.length;
                  });
                  res.on('end', () => resolve(n));
                  res.on('error', reject);
                },
              )
              .on('error', reject);
          }),
      ),
    );
    expect(sizes.every((n) => n === 3 * 1024 * 1024)).toBe(true);
    await settled(s.id, N);
    agent.destroy();
  });
});

describe("on the files feature's clock (issue 46)", () => {
  test('a share expires when the clock passes its expiry, and its owner sees it expired: no waiting', async () => {
    const clock = manualClock();
    const own = await createTestApp({}, undefined, { clock, features: ['auth', 'users', 'files'] });
    try {
      const t = (await own.signIn()).token;
      const f = await uploadFile(own.app, t, 'timed.txt', Buffer.from('timed'));
      const res = await own.app.inject({
        method: 'POST',
        url: `/api/files/${f.id}/share`,
        headers: bearer(t),
        payload: { accessLevel: 'public', expiresAt: new Date(clock.now() + 60 * 60_000).toISOString() },
      });
      expect(res.statusCode).toBe(201);
      const s: FileShare = res.json().data;
      expect(s.state).toBe('active');
      expect((await own.app.inject({ url: `/api/files/shared/${s.token}` })).statusCode).toBe(200);

      await clock.advance(60 * 60_000 + 1);

      expect((await own.app.inject({ url: `/api/files/shared/${s.token}` })).statusCode).toBe(404);
      const listed = await own.app.inject({ url: `/api/files/${f.id}/shares`, headers: bearer(t) });
      expect(listed.json().data.map((x: FileShare) => [x.id, x.state])).toEqual([[s.id, 'expired']]);
    } finally {
      await own.close();
    }
  });
});
