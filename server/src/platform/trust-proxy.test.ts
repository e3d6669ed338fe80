import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.ts';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/**
 * nginx's usual `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;` appends the address it saw
 * to whatever the client sent, so only the right-most entry is trustworthy with one proxy in front.
 */
describe('TRUST_PROXY=1 behind one proxy (issue 16)', () => {
  it('a client forging X-Forwarded-For is still limited after 10 wrong access codes', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/access-code',
        // What nginx forwards: the forged value, then the address it really saw.
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
        payload: { code: 'wrong-code-x' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('different real clients behind the proxy are limited separately', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    for (let i = 0; i < 10; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/access-code',
        headers: { 'x-forwarded-for': '203.0.113.7' },
        payload: { code: 'wrong-code-x' },
      });
    }
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/access-code',
      headers: { 'x-forwarded-for': '203.0.113.8' },
      payload: { code: 'wrong-code-x' },
    });
    expect(other.statusCode).toBe(401);
  });
});

describe('IPv6 clients (issue 15)', () => {
  it('two addresses in one /64 share the access-code limit', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/access-code',
        headers: { 'x-forwarded-for': `2001:db8:1:2::${(i + 1).toString(16)}` },
        payload: { code: 'wrong-code-x' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
