import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { uploadFile } from './test-helpers.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('metrics during file transfers (issue 16)', () => {
  it('upload and download bytes and request counts move', async () => {
    ctx = await createTestApp({ METRICS_TOKEN });
    const { token } = await ctx.signIn({ access_level: 'user' });
    const scrape = async () =>
      (await ctx!.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
        .body;
    const bytes = (text: string, name: string, route: string) =>
      Number(
        new RegExp(`^${name}\\{route="${route.replaceAll('/', '\\/')}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
      );
    const before = await scrape();
    const file = await uploadFile(ctx.app, token, 'metered.bin', Buffer.alloc(300_000, 1));
    await ctx.app.inject({ url: `/download/${file.id}`, headers: { authorization: `Bearer ${token}` } });
    const after = await scrape();
    expect(
      bytes(after, 'http_request_bytes_total', '/upload') -
        bytes(before, 'http_request_bytes_total', '/upload'),
    ).toBeGreaterThan(300_000);
    expect(
      bytes(after, 'http_response_bytes_total', '/download/:id') -
        bytes(before, 'http_response_bytes_total', '/download/:id'),
    ).toBe(300_000);
  });
});
