import { type FileItem, type FileShare, SHARE_LINK_TEXTS } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { uploadFile } from '../test-helpers.ts';

/** Editing shares and download limits (issue 45; docs/files.md "Shares", "Download limits"). */

let ctx: TestContext;
let token: string;
let file: FileItem;
const content = Buffer.from('0123456789 limited bytes');

beforeAll(async () => {
  ctx = await createTestApp({ DOWNLOADS_PER_ADDRESS: '64' });
  token = (await ctx.signIn()).token;
  file = await uploadFile(ctx.app, token, 'edit-me.txt', content);
});
afterAll(() => ctx.close());

async function share(body: Record<string, unknown>): Promise<FileShare> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${file.id}/share`,
    headers: bearer(token),
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`share failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
const edit = (id: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/files/shares/${id}`, headers: bearer(token), payload });
const listed = async (id: string): Promise<FileShare | undefined> => {
  const res = await ctx.app.inject({ url: `/api/files/${file.id}/shares`, headers: bearer(token) });
  return (res.json().data as FileShare[]).find((s) => s.id === id);
};
const info = (t: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url: `/api/files/shared/${t}`, headers });
type Get = { headers?: Record<string, string>; from?: string; method?: 'GET' | 'HEAD'; query?: string };
const download = (t: string, { headers = {}, from = '203.0.113.1', method = 'GET', query = '' }: Get = {}) =>
  ctx.app.inject({
    method,
    url: `/api/files/shared/${t}/download${query}`,
    headers,
    remoteAddress: from,
  });
const countOf = async (id: string) => (await listed(id))?.downloadCount;

describe('editing a share', () => {
  test('expiry, access level, title, note and limit change at once; the list shows them', async () => {
    const s = await share({ accessLevel: 'user' });
    expect(s).toMatchObject({ title: null, note: null, maxDownloads: null, state: 'active' });
    expect((await info(s.token)).statusCode).toBe(401); // users only, signed out
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await edit(s.id, {
      accessLevel: 'public',
      expiresAt,
      title: '  Holiday photos ',
      note: 'For the trip.\nAsk me for more.',
      maxDownloads: 5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      accessLevel: 'public',
      expiresAt,
      title: 'Holiday photos',
      note: 'For the trip.\nAsk me for more.',
      maxDownloads: 5,
      state: 'active',
      token: s.token,
    });
    expect(res.json().data.updatedAt).toEqual(expect.any(String));
    const opened = await info(s.token);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data).toMatchObject({
      name: 'edit-me.txt',
      title: 'Holiday photos',
      note: 'For the trip.\nAsk me for more.',
      maxDownloads: 5,
      downloadCount: 0,
    });
    // Clearing: empty title, null note, no limit, permanent.
    const cleared = await edit(s.id, { title: '', note: null, maxDownloads: null, expiresAt: null });
    expect(cleared.json().data).toMatchObject({
      title: null,
      note: null,
      maxDownloads: null,
      expiresAt: null,
    });
  });

  test('an expired share shows as expired and can be given a new expiry, which revives it', async () => {
    const s = await share({ accessLevel: 'public' });
    await ctx.db
      .updateTable('file_shares')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', s.id)
      .execute();
    expect((await listed(s.id))?.state).toBe('expired');
    expect((await info(s.token)).statusCode).toBe(404);
    const past = await edit(s.id, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().code).toBe('EXPIRY_IN_PAST');
    const revived = await edit(s.id, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect(revived.json().data.state).toBe('active');
    expect((await info(s.token)).statusCode).toBe(200);
  });

  test('a password is set, changed and removed; the old one and its tickets stop working at once', async () => {
    const s = await share({ accessLevel: 'public' });
    expect((await edit(s.id, { password: 'first-pass' })).json().data.hasPassword).toBe(true);
    expect((await info(s.token)).json().code).toBe('SHARE_PASSWORD_REQUIRED');
    const ticket = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/shared/${s.token}/ticket`,
      headers: { 'x-share-password': 'first-pass' },
    });
    const ticketUrl: string = ticket.json().data.url;
    expect((await ctx.app.inject({ url: ticketUrl })).statusCode).toBe(200);

    await edit(s.id, { password: 'second-pass' });
    expect((await info(s.token, { 'x-share-password': 'first-pass' })).json().code).toBe(
      'SHARE_PASSWORD_WRONG',
    );
    expect((await info(s.token, { 'x-share-password': 'second-pass' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: ticketUrl })).json().code).toBe('TICKET_INVALID');
    const row = await ctx.db
      .selectFrom('file_shares')
      .select('password_hash')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('second-pass');

    expect((await edit(s.id, { password: null })).json().data.hasPassword).toBe(false);
    expect((await info(s.token)).statusCode).toBe(200);
  });

  test('bad edits are 400 with the field named; a revoked or unknown share is 404', async () => {
    const s = await share({ accessLevel: 'public' });
    for (const [payload, field] of [
      [{ maxDownloads: 0 }, 'maxDownloads'],
      [{ maxDownloads: 1.5 }, 'maxDownloads'],
      [{ title: 'two\nlines' }, 'title'],
      [{ note: 'x'.repeat(1001) }, 'note'],
      [{ password: 'abc' }, 'password'],
      [{ accessLevel: 'admin' }, 'accessLevel'],
    ] as const) {
      const res = await edit(s.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toContain(field);
    }
    await ctx.app.inject({ method: 'DELETE', url: `/api/files/shares/${s.id}`, headers: bearer(token) });
    expect((await edit(s.id, { title: 'x' })).statusCode).toBe(404);
    expect((await edit('no-such-share', { title: 'x' })).statusCode).toBe(404);
  });

  test('a viewer cannot edit a share', async () => {
    const s = await share({ accessLevel: 'public' });
    const viewer = (await ctx.signIn({ access_level: 'viewer' })).token;
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/files/shares/${s.id}`,
      headers: bearer(viewer),
      payload: { title: 'mine now' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('download limits', () => {
  test('a limit of 2 serves two downloads, then says the limit is reached; HEAD and link previews never count', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 2 });
    expect((await download(s.token, { method: 'HEAD' })).statusCode).toBe(200);
    const bot = await download(s.token, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' },
    });
    expect(bot.statusCode).toBe(403);
    expect(bot.json()).toMatchObject({ code: 'SHARE_NOT_PREVIEWED', error: SHARE_LINK_TEXTS.notPreviewed });
    expect(await countOf(s.id)).toBe(0);

    for (const from of ['198.51.100.1', '198.51.100.2']) {
      const res = await download(s.token, { from });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
    }
    const third = await download(s.token, { from: '198.51.100.3' });
    expect(third.statusCode).toBe(410);
    expect(third.json()).toMatchObject({ code: 'SHARE_LIMIT_REACHED', error: SHARE_LINK_TEXTS.limitReached });
    // The page and the ticket say so too, and HEAD as well; nothing more was counted.
    expect((await info(s.token)).json().code).toBe('SHARE_LIMIT_REACHED');
    const ticket = await ctx.app.inject({ method: 'POST', url: `/api/files/shared/${s.token}/ticket` });
    expect(ticket.json().code).toBe('SHARE_LIMIT_REACHED');
    expect((await download(s.token, { method: 'HEAD' })).statusCode).toBe(410);
    const shown = await listed(s.id);
    expect(shown).toMatchObject({ downloadCount: 2, maxDownloads: 2, state: 'limit_reached' });

    // Raising the limit makes it serve again.
    await edit(s.id, { maxDownloads: 3 });
    expect((await download(s.token)).statusCode).toBe(200);
    expect(await countOf(s.id)).toBe(3);
  });

  test('a Range continuation from the same client never counts; from another client it is a new download', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 1 });
    const first = await download(s.token, { headers: { range: 'bytes=0-4' }, from: '192.0.2.10' });
    expect(first.statusCode).toBe(206);
    expect(await countOf(s.id)).toBe(1);
    // The limit is reached, but the download that took it is still finished, as often as it resumes.
    for (let i = 0; i < 2; i += 1) {
      const rest = await download(s.token, { headers: { range: 'bytes=5-' }, from: '192.0.2.10' });
      expect(rest.statusCode).toBe(206);
      expect(rest.rawPayload.equals(content.subarray(5))).toBe(true);
    }
    expect(await countOf(s.id)).toBe(1);
    // Another address asking for the rest has begun no download: it would be a new one, and none is left.
    const stranger = await download(s.token, { headers: { range: 'bytes=5-' }, from: '192.0.2.99' });
    expect(stranger.statusCode).toBe(410);
    // Starting again from byte 0 is a new download, even from the same client.
    expect((await download(s.token, { from: '192.0.2.10' })).statusCode).toBe(410);
    expect(await countOf(s.id)).toBe(1);
  });

  test('a browser download through a ticket resumes on that ticket without counting again', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 1 });
    const ticket = await ctx.app.inject({ method: 'POST', url: `/api/files/shared/${s.token}/ticket` });
    const query = `?${ticket.json().data.url.split('?')[1]}`;
    const part = await download(s.token, { query, headers: { range: 'bytes=0-2' }, from: '192.0.2.20' });
    expect(part.statusCode).toBe(206);
    // The browser resumes from another address (a phone changing networks): the ticket is what it continues.
    const rest = await download(s.token, { query, headers: { range: 'bytes=3-' }, from: '192.0.2.21' });
    expect(rest.statusCode).toBe(206);
    expect(Buffer.concat([part.rawPayload, rest.rawPayload]).equals(content)).toBe(true);
    expect(await countOf(s.id)).toBe(1);
  });

  test('conditional and unsatisfiable requests carry no file and never count', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 1 });
    const etag = `"${file.sha256}"`;
    expect((await download(s.token, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    expect((await download(s.token, { headers: { range: 'bytes=9999-' } })).statusCode).toBe(416);
    expect(await countOf(s.id)).toBe(0);
  });

  test('downloads at once never exceed the limit', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 3 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => download(s.token, { from: `198.18.0.${i + 1}` })),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((c) => c === 200)).toHaveLength(3);
    expect(statuses.filter((c) => c === 410)).toHaveLength(17);
    expect(await countOf(s.id)).toBe(3);
  });

  test('a limited link is not previewed; its thumbnail route follows its rules', async () => {
    const s = await share({ accessLevel: 'public', maxDownloads: 1 });
    const preview = await ctx.app.inject({ url: `/api/files/shared/${s.token}/preview` });
    expect(preview.statusCode).toBe(403);
    expect(preview.json().code).toBe('SHARE_NOT_PREVIEWED');
    expect(await countOf(s.id)).toBe(0);
  });
});
