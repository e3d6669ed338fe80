import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileShare } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { uploadFile } from '../test-helpers.ts';

const DISCORDBOT = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)';
const INDEX = `<!doctype html><html><head><meta charset="UTF-8" /><title>Guildhall</title></head><body><div id="root"></div></body></html>`;

let ctx: TestContext;
let token: string;
let dist: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-unfurl-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  ctx = await createTestApp({ WEB_DIST_DIR: dist, PUBLIC_URL: 'https://guild.example.org' });
  token = (await ctx.signIn({ username: 'alice', global_name: 'Alice <Admin>' })).token;
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

async function shareOf(name: string, body: Record<string, unknown>, bytes = Buffer.from('hello')) {
  const f = await uploadFile(ctx.app, token, name, bytes);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${f.id}/share`,
    headers: bearer(token),
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  const s: FileShare = res.json().data;
  return s;
}
const page = (t: string, method: 'GET' | 'HEAD' = 'GET', ua = DISCORDBOT) =>
  ctx.app.inject({ method, url: `/shared/${t}`, headers: { 'user-agent': ua } });
const countOf = async (shareId: string) =>
  Number(
    (
      await ctx.db
        .selectFrom('file_shares')
        .select('download_count')
        .where('id', '=', shareId)
        .executeTakeFirstOrThrow()
    ).download_count,
  );
/** The content of `<meta property|name="key">`, or null. */
const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1] ?? null;

describe('share links unfurl', () => {
  test("Discord's crawler gets Open Graph, Twitter-card and oEmbed tags for a public share", async () => {
    const s = await shareOf('report.pdf', { accessLevel: 'public' }, Buffer.alloc(2048, 1));
    const res = await page(s.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('<div id="root"></div>'); // still the app for a browser
    expect(metaOf(html, 'og:title')).toBe('report.pdf');
    expect(metaOf(html, 'og:description')).toBe('2 KB · PDF file · shared by Alice &#60;Admin&#62;');
    expect(metaOf(html, 'og:url')).toBe(`https://guild.example.org/shared/${s.token}`);
    expect(metaOf(html, 'og:site_name')).toBe('Guildhall');
    expect(metaOf(html, 'twitter:card')).toBe('summary');
    expect(metaOf(html, 'og:image')).toBeNull(); // a PDF has no picture
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="https://guild.example.org/api/files/shared/${s.token}/oembed"`,
    );
    expect(html.match(/<title>/g)).toHaveLength(1);

    const oembed = await ctx.app.inject({ url: `/api/files/shared/${s.token}/oembed` });
    expect(oembed.statusCode).toBe(200);
    expect(oembed.json()).toEqual({
      version: '1.0',
      type: 'link',
      title: 'report.pdf',
      provider_name: 'Guildhall',
      provider_url: 'https://guild.example.org',
      author_name: 'Alice <Admin>',
    });
  });

  test("the share's title wins, and an image points at the share's thumbnail a crawler may fetch", async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const s = await shareOf('cat.png', { accessLevel: 'public', title: 'Our cat' }, png);
    const html = (await page(s.token)).body;
    expect(metaOf(html, 'og:title')).toBe('Our cat');
    const image = `https://guild.example.org/api/files/shared/${s.token}/thumbnail`;
    expect(metaOf(html, 'og:image')).toBe(image);
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    // The crawler's fetch of the thumbnail: an image, not a download.
    const thumb = await ctx.app.inject({
      url: `/api/files/shared/${s.token}/thumbnail`,
      headers: { 'user-agent': DISCORDBOT },
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(await countOf(s.id)).toBe(0);
    const oembed = (await ctx.app.inject({ url: `/api/files/shared/${s.token}/oembed` })).json();
    expect(oembed.thumbnail_url).toBe(image);
  });

  test('HEAD, the crawler GET and its thumbnail never count, nor use up a download limit', async () => {
    const s = await shareOf('limited.png', { accessLevel: 'public', maxDownloads: 1 });
    for (const method of ['GET', 'HEAD'] as const) {
      expect((await page(s.token, method)).statusCode).toBe(200);
      expect((await page(s.token, method, 'Mozilla/5.0 (X11; Linux x86_64)')).statusCode).toBe(200);
    }
    await ctx.app.inject({
      url: `/api/files/shared/${s.token}/oembed`,
      headers: { 'user-agent': DISCORDBOT },
    });
    await ctx.app.inject({
      url: `/api/files/shared/${s.token}/thumbnail`,
      headers: { 'user-agent': DISCORDBOT },
    });
    expect(await countOf(s.id)).toBe(0);
    // The one download is still there for a person.
    expect((await ctx.app.inject({ url: `/api/files/shared/${s.token}/download` })).statusCode).toBe(200);
    expect(await countOf(s.id)).toBe(1);
    // Limit reached: the link unfurls with no content.
    const html = (await page(s.token)).body;
    expect(metaOf(html, 'og:title')).toBeNull();
    expect(html).toContain('<title>Guildhall</title>');
    expect((await ctx.app.inject({ url: `/api/files/shared/${s.token}/oembed` })).statusCode).toBe(404);
  });

  test('password, users-only, expired and unknown links unfurl with the site title only', async () => {
    const pw = await shareOf('secret.txt', { accessLevel: 'public', password: 'hunter22' });
    const users = await shareOf('members.txt', { accessLevel: 'user' });
    const expired = await shareOf('old.txt', { accessLevel: 'public' });
    await ctx.db
      .updateTable('file_shares')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    for (const t of [pw.token, users.token, expired.token, 'x'.repeat(32), 'not a token']) {
      const res = await page(encodeURIComponent(t));
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.body).not.toMatch(/og:|twitter:|oembed|secret|members|old\.txt/);
      expect(
        (await ctx.app.inject({ url: `/api/files/shared/${encodeURIComponent(t)}/oembed` })).statusCode,
      ).toBe(404);
    }
  });

  test('a name with quotes and angle brackets cannot break out of the tags', async () => {
    const name = `"><script>alert('x')<meta x=".txt`;
    const s = await shareOf(name, {
      accessLevel: 'public',
      title: `</title><img src=x onerror=alert(1)> $& $1 "'`,
    });
    const html = (await page(s.token)).body;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</title><');
    expect(metaOf(html, 'og:title')).toBe(
      '&#60;/title&#62;&#60;img src=x onerror=alert(1)&#62; $&#38; $1 &#34;&#39;',
    );
    expect(html).toContain(
      '<title>&#60;/title&#62;&#60;img src=x onerror=alert(1)&#62; $&#38; $1 &#34;&#39; · Guildhall</title>',
    );
    const plain = await shareOf(`x${name}`, { accessLevel: 'public' });
    const html2 = (await page(plain.token)).body;
    expect(html2).not.toContain('<script>');
    expect(metaOf(html2, 'og:title')).toBe(
      'x&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;meta x=&#34;.txt',
    );
    // Each tag is intact: the page's charset and the nine tags of a share without a picture, no more.
    expect(html2.match(/<meta /g)).toHaveLength(10);
  });
});
