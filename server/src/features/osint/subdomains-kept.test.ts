import { OsintSearchResponse } from '@guildhall/common';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';

/**
 * OSINT_SUBDOMAINS_KEPT reaches the domain report: the fake crt.sh logs five subdomains of the domain,
 * the operator keeps two, so the report lists the first two (sorted) and still counts all five.
 */

let fake: FakeOsint;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeOsint({ sites: 1 });
  ctx = await createTestApp({ ...fake.env, OSINT_SUBDOMAINS_KEPT: '2' });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

it('a domain report lists as many Certificate Transparency subdomains as OSINT_SUBDOMAINS_KEPT says', async () => {
  const { token } = await ctx.signIn({ access_level: 'viewer' });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/osint/search',
    headers: bearer(token),
    payload: { type: 'domain', query: FAKE.domain },
  });
  expect(res.statusCode, res.body).toBe(200);
  const ct = OsintSearchResponse.parse(res.json()).results.sources.find(
    (s) => s.name === 'Certificate Transparency',
  );
  expect(ct).toMatchObject({
    status: '5 subdomains',
    data: { count: 5, subdomains: ['api.example.test', 'dev.example.test'] },
  });
});
