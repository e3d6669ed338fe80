import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../../test/app.ts';
import { uploadFile } from '../test-helpers.ts';
import { publicUrlWarning } from './base-url.ts';

/** Issue 15, finding 7: share links must not be steered by forwarded headers. */
const FORGED = { 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '203.0.113.9' };

async function shareUrls(ctx: TestContext, headers: Record<string, string>) {
  const { token } = await ctx.signIn();
  const f = await uploadFile(ctx.app, token, 'x.txt', Buffer.from('x'));
  const created = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${f.id}/share`,
    headers: { ...bearer(token), ...headers },
    payload: { accessLevel: 'public' },
  });
  expect(created.statusCode).toBe(201);
  const listed = await ctx.app.inject({
    url: `/api/files/${f.id}/shares`,
    headers: { ...bearer(token), ...headers },
  });
  return [created.json().data.url as string, ...listed.json().data.map((s: { url: string }) => s.url)];
}

describe('with TRUST_PROXY and no PUBLIC_URL', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => ctx.close());

  test('a forged X-Forwarded-Host is ignored: links use the Host header', async () => {
    const urls = await shareUrls(ctx, { host: 'guild.local:8080', ...FORGED });
    for (const url of urls) expect(url).toMatch(/^http:\/\/guild\.local:8080\/shared\/[A-Za-z0-9_-]{32}$/);
  });

  test('a Host header that is not a host name falls back to localhost instead of going into the link', async () => {
    const urls = await shareUrls(ctx, { host: 'evil.example/phish?x=', ...FORGED });
    for (const url of urls) expect(url).toMatch(/^http:\/\/localhost\/shared\//);
  });
});

test('with PUBLIC_URL, links use it whatever the headers say', async () => {
  const ctx = await createTestApp({ TRUST_PROXY: '1', PUBLIC_URL: 'https://guild.example.org' });
  try {
    const urls = await shareUrls(ctx, { host: 'other.example', ...FORGED });
    for (const url of urls) expect(url).toMatch(/^https:\/\/guild\.example\.org\/shared\//);
  } finally {
    await ctx.close();
  }
});

test('startup warns when TRUST_PROXY is set without PUBLIC_URL, and only then', () => {
  expect(publicUrlWarning({ trustProxy: 1, publicUrl: undefined })).toMatch(/set PUBLIC_URL/);
  expect(publicUrlWarning({ trustProxy: ['10.0.0.2'], publicUrl: undefined })).toMatch(/TRUST_PROXY/);
  expect(publicUrlWarning({ trustProxy: 1, publicUrl: 'https://g.example' })).toBeNull();
  expect(publicUrlWarning({ trustProxy: false, publicUrl: undefined })).toBeNull();
});
