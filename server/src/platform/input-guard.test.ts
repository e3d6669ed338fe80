import os from 'node:os';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createEveryRouteApp, type TestContext } from '../test/app.ts';
import { fail, registerErrorHandling } from './errors.ts';
import { findBadText } from './input-guard.ts';

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await createEveryRouteApp();
  token = (await ctx.signIn({ access_level: 'admin' })).token;
});
afterAll(() => ctx.close());

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('control characters are refused on every route, on both databases (issue 26 #6)', () => {
  it('a NUL anywhere in a JSON body answers 400 CONTROL_CHARACTER naming the field, on every route with a body', async () => {
    const missed: string[] = [];
    for (const route of ctx.app.registeredRoutes) {
      if (!BODY_METHODS.has(route.method) || route.url === '/*') continue;
      const url = route.url.replace(/:[A-Za-z_]+/g, 'x').replace(/\*$/, 'x');
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'a\u0000b', title: 'ok' }),
      });
      const json = res.json() as { code?: string; error?: string };
      if (res.statusCode !== 400 || json.code !== 'CONTROL_CHARACTER') {
        missed.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 100)}`);
      } else {
        expect(json.error).toBe('body.name contains control characters (U+0000); remove it and try again');
      }
    }
    expect(missed).toEqual([]);
  });

  it('path parameters and query strings refuse control characters and line breaks', async () => {
    const get = ctx.app.registeredRoutes.filter((r) => r.method === 'GET' && r.url.includes(':'));
    expect(get.length).toBeGreaterThan(0);
    for (const route of get) {
      for (const bad of ['a%00b', 'a%0Ab', 'a%C2%85b']) {
        const res = await ctx.app.inject({
          url: route.url.replace(/:[A-Za-z_]+/g, bad).replace(/\*$/, bad),
          headers: bearer(token),
        });
        // Refused: by the guard, or earlier by a route's own id check; never served, never a 5xx.
        expect(res.statusCode, `${route.url} ${bad}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${route.url} ${bad}`).toBeLessThan(500);
      }
    }
    const query = await ctx.app.inject({ url: '/api/auth/validate?x=a%00b', headers: bearer(token) });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({
      code: 'CONTROL_CHARACTER',
      error: expect.stringContaining('query.x'),
    });
  });

  it('finds what PostgreSQL cannot store and what no text holds; allows multi-line text in bodies', () => {
    expect(findBadText({ a: ['ok', { b: 'x\u0007' }] }, 'body', false)).toEqual({
      where: 'body.a[1].b',
      reason: 'control characters (U+0007)',
    });
    expect(findBadText({ t: 'lone \uD800 surrogate' }, 'body', false)?.reason).toContain(
      'unpaired surrogate',
    );
    expect(findBadText({ ['k\u0000']: 1 }, 'body', false)?.where).toBe('body (a field name)');
    expect(findBadText({ text: 'two\nlines\tand a tab 🎵' }, 'body', false)).toBeNull();
    expect(findBadText({ q: 'two\nlines' }, 'query', true)?.reason).toBe(
      'control characters (a line break or tab)',
    );
    expect(findBadText(Buffer.from([0]), 'body', false)).toBeNull();
  });
});

describe('no server paths in any response body (issue 26)', () => {
  it('an error message that names a file of the server reaches the client without the path', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app, { serverPaths: ['/srv/guildhall-data'] });
    app.get('/leak-409', async () => {
      throw fail('CONFLICT', `could not write /srv/guildhall-data/blobs/ab/cdef: ENOSPC`);
    });
    app.get('/leak-403', async () => {
      throw Object.assign(new Error(`open '${os.tmpdir()}/guildhall-x/part': EACCES`), { statusCode: 403 });
    });
    app.get('/leak-cwd', async () => {
      throw fail('BAD_REQUEST', `bad file ${process.cwd()}/server/src/x.ts`);
    });
    try {
      const a = await app.inject({ url: '/leak-409' });
      expect(a.statusCode).toBe(409);
      expect(a.json().error).toBe('could not write [server path]: ENOSPC');
      const b = await app.inject({ url: '/leak-403' });
      expect(b.json().error).toBe("open '[server path]': EACCES");
      const c = await app.inject({ url: '/leak-cwd' });
      expect(c.json().error).toBe('bad file [server path]');
    } finally {
      await app.close();
    }
  });

  it('no answer of the bad-input kind carries the data directory or the checkout', async () => {
    for (const route of ctx.app.registeredRoutes.filter((r) => r.url !== '/*')) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '..%2F..%2Fetc%2Fpasswd').replace(/\*$/, 'x');
      const res = await ctx.app.inject({
        method: route.method as 'GET',
        url,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{"path":"/etc/passwd"}',
      });
      expect(res.body, `${route.method} ${route.url}`).not.toContain(ctx.config.dataDir);
      expect(res.body, `${route.method} ${route.url}`).not.toContain(process.cwd());
    }
  });
});
