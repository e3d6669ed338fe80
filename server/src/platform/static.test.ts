import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.ts';

let ctx: TestContext;
let dist: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  // What web/scripts/precompress.ts writes next to a text file (index.html has both copies too).
  const js = 'export const answer = 42;'.repeat(50);
  fs.writeFileSync(path.join(dist, 'assets', 'page-def456.js'), js);
  fs.writeFileSync(path.join(dist, 'assets', 'page-def456.js.br'), brotliCompressSync(js));
  fs.writeFileSync(path.join(dist, 'assets', 'page-def456.js.gz'), gzipSync(js));
  const html = '<!doctype html><div id="root"></div>';
  fs.writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(html));
  fs.writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(html));
  ctx = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it.each([
    '/',
    '/login',
    '/dashboard',
    '/minigames/tic-tac-toe',
    '/shared/sometoken',
    '/auth/discord/callback?code=1',
  ])('serves index.html for the client route %s', async (url) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable and 404s unknown assets and API paths as JSON', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of ['/assets/missing.js', '/api/nope', '/upload/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().success).toBe(false);
    }
    const post = await ctx.app.inject({ method: 'POST', url: '/api/nope' });
    expect(post.statusCode).toBe(404);
  });

  it('answers a malformed URL with a 400 in the envelope', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users/%zz' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'Malformed URL' });
  });

  it('never serves files outside the build (path traversal)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(res.body).not.toContain('root:');
  });

  it('sends a strict CSP without inline scripts, and a request id', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('precompressed copies (issue 31)', () => {
  const js = 'export const answer = 42;'.repeat(50);

  it('sends the brotli copy to a browser that accepts it, as JavaScript, varying on Accept-Encoding', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/page-def456.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBeLessThan(js.length);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(js);
  });

  it('a hashed asset carries no page-only headers (CSP, frame options), but keeps nosniff and CORP', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/page-def456.js' });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const page = await ctx.app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends the gzip copy when brotli is not accepted, and the file itself when nothing is', async () => {
    const gz = await ctx.app.inject({
      method: 'GET',
      url: '/assets/page-def456.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await ctx.app.inject({
      method: 'GET',
      url: '/assets/page-def456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(js);
  });

  it('a file without copies goes as it is; the SPA fallback is compressed and never cached', async () => {
    const asset = await ctx.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.headers['content-encoding']).toBeUndefined();
    expect(asset.body).toBe('console.log(1)');
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/filesystem',
      headers: { 'accept-encoding': 'br' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
  });
});

describe('the global rate limit and the web app', () => {
  it("does not count the web app's own files, but counts pages, API calls and unknown assets", async () => {
    for (let i = 0; i < 5; i++) {
      const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js?v=1' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    const page = await ctx.app.inject({ method: 'GET', url: '/login' });
    const before = Number(page.headers['x-ratelimit-remaining']);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(unknown.statusCode).toBe(404);
    expect(Number(unknown.headers['x-ratelimit-remaining'])).toBe(before - 1);
    const api = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(Number(api.headers['x-ratelimit-remaining'])).toBe(before - 2);
  });
});
