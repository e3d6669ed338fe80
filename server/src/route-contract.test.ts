import { ApiError, OpenApiDocument } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { RegisteredRoute } from './platform/access.ts';
import { OPENAPI_PATH } from './platform/openapi.ts';
import { bearer, createEveryRouteApp, type TestContext } from './test/app.ts';

/**
 * The response half of the contract: every route declares the schema of its success answers (zod
 * schemas from common/, so Fastify validates and serializes them and the web parses with the same
 * ones), and the OpenAPI document generated from those declarations lists every route.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createEveryRouteApp();
});
afterAll(() => ctx.close());

const isSuccess = (status: string) => /^[23]\d\d$|^[23]xx$/.test(status);

/** Routes that declare no schema for a success status, as "METHOD url (declares: …)". */
const withoutResponseSchema = (routes: RegisteredRoute[]) =>
  routes
    .filter((r) => !r.responses.some(isSuccess))
    .map((r) => `${r.method} ${r.url} (declares: ${r.responses.join(', ') || 'nothing'})`);

describe('route contract', () => {
  it('every registered route declares a response schema for its success status', () => {
    const missing = withoutResponseSchema(ctx.app.registeredRoutes);
    expect(missing, 'add schema.response: { 200: SomeResponse } from common/ to these routes').toEqual([]);
  });

  it('(the check fails on a route added without one, even when it declares its errors)', async () => {
    const app = await buildApp({ config: ctx.config, db: ctx.db, accessCode: 'x', logger: false });
    app.get('/api/no-contract', { config: { access: 'public' } }, async () => ({ anything: true }));
    app.get(
      '/api/errors-only',
      { config: { access: 'public' }, schema: { response: { 404: ApiError } } },
      async () => ({}),
    );
    await app.ready();
    expect(withoutResponseSchema(app.registeredRoutes)).toEqual([
      'GET /api/no-contract (declares: nothing)',
      'GET /api/errors-only (declares: 404, 4xx, 5xx)',
    ]);
    await app.close();
  });

  it('every route answers errors in the common envelope (declared for 4xx and 5xx)', () => {
    const missing = ctx.app.registeredRoutes
      .filter((r) => !(r.responses.includes('4xx') && r.responses.includes('5xx')))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('serves an OpenAPI document of every route to admins, generated from the schemas', async () => {
    const { token } = await ctx.signIn({ access_level: 'admin' });
    const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const doc = OpenApiDocument.parse(res.json());
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // OpenAPI writes :id as {id} and the wildcard as {*}.
    const routes = ctx.app.registeredRoutes.map(
      (r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}')}`,
    );
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    // The success schema of a route reaches the document (here: the file listing's items).
    const list = (doc.paths['/api/files'] as Record<string, { responses: Record<string, unknown> }>).get;
    expect(JSON.stringify(list?.responses['200'])).toContain('"itemCount"');
    // The error envelope is one component every route refers to, not a copy per status per route (the
    // document stayed small enough for the API reference page to draw).
    const raw = res.body;
    expect(JSON.stringify(list?.responses['4XX'])).toContain('#/components/schemas/ApiError');
    // (the component's output and input forms: at most two copies in all)
    expect(raw.split('"INTERNAL"').length - 1).toBeLessThanOrEqual(2);
    expect(raw.length).toBeLessThan(1_500_000);
  });

  it('refuses the document to members below admin', async () => {
    const { token } = await ctx.signIn({ access_level: 'moderator' });
    const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: bearer(token) });
    expect(res.statusCode).toBe(403);
  });

  it('a handler answering outside its declared schema is a 500, not a silent contract break', async () => {
    const app = await buildApp({ config: ctx.config, db: ctx.db, accessCode: 'x', logger: false });
    const { z } = await import('zod');
    app.get(
      '/api/contract-probe',
      { config: { access: 'public' }, schema: { response: { 200: z.object({ n: z.number() }) } } },
      async () => ({ n: 'not a number' }) as unknown as { n: number },
    );
    const res = await app.inject({ method: 'GET', url: '/api/contract-probe' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'INTERNAL' });
    await app.close();
  });
});
