import { OsintSearchResponse, type OsintSource } from '@guildhall/common';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';

/**
 * Fault containment of the OSINT lookup (issue 25): the outside sources break while members search —
 * profile sites dropping every connection, the DNS resolver answering SERVFAIL or nothing at all, the
 * services (RDAP, crt.sh, Gravatar, HIBP) down or answering garbage. Each time the process keeps
 * answering, the member is told what could not be checked (never LOW, "Not found" or "No records"),
 * /readyz shows the DNS dependency degraded without failing readiness, and the next search after the
 * source returns is whole again.
 */

let fake: FakeOsint;
let ctx: TestContext;
let token: string;

beforeAll(async () => {
  fake = await startFakeOsint({ sites: 30 });
  ctx = await createTestApp({ ...fake.env, OSINT_SITE_TIMEOUT_MS: '500', OSINT_SEARCHES_PER_MINUTE: '1000' });
  token = (await ctx.signIn({ access_level: 'viewer' })).token;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  Object.assign(fake.faults, { dns: 'ok', services: 'ok', sites: 'ok' });
});

async function search(type: string, query: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/osint/search',
    headers: bearer(token),
    payload: { type, query },
  });
  expect(res.statusCode, res.body).toBe(200);
  return OsintSearchResponse.parse(res.json()).results;
}

const byName = (sources: OsintSource[], name: string) => sources.find((s) => s.name === name)!;
const stillServing = async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(200);
};

describe('profile sites down', () => {
  it('a username scan with every site unreachable is Inconclusive with why, and whole again when they return', async () => {
    fake.faults.sites = 'down';
    const r = await search('username', FAKE.knownUser);
    const platforms = byName(r.sources, 'Social Media Platforms');
    expect(platforms.state).toBe('could_not_check');
    expect(platforms.status).toBe('Could not check');
    expect(platforms.reason).toBe('None of the 30 sites could be checked (mostly: could not connect)');
    expect(r.summary.overallRisk).toBe('INCONCLUSIVE');
    expect(r.summary.inconclusive).toMatch(/^Could not check 1 of 1 source: Social Media Platforms/);
    await stillServing();

    fake.faults.sites = 'ok';
    const after = await search('username', FAKE.knownUser);
    expect(byName(after.sources, 'Social Media Platforms').state).toBe('found');
    expect(after.summary.overallRisk).not.toBe('INCONCLUSIVE');
  });
});

describe('DNS resolver failing', () => {
  it('SERVFAIL: the domain search says it could not look the records up (not "No records"), and recovers', async () => {
    fake.faults.dns = 'servfail';
    const r = await search('domain', FAKE.domain);
    const dns = byName(r.sources, 'DNS Records');
    expect(dns).toMatchObject({
      state: 'could_not_check',
      status: 'Could not look up',
      reason: 'The DNS resolver did not answer, so the records could not be looked up',
    });
    expect(r.summary.overallRisk).not.toBe('LOW');
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'degraded',
      checks: { osintDns: { ok: false, optional: true } },
    });

    fake.faults.dns = 'ok';
    const after = await search('domain', FAKE.domain);
    expect(byName(after.sources, 'DNS Records')).toMatchObject({ state: 'found', status: 'Found' });
    const readyAgain = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(readyAgain.json().checks.osintDns).toEqual({ ok: true, optional: true });
  });

  it('SERVFAIL: an e-mail search cannot claim the domain has no MX', async () => {
    fake.faults.dns = 'servfail';
    const r = await search('email', 'someone@example.test');
    const mx = byName(r.sources, 'MX Records');
    expect(mx.state).toBe('could_not_check');
    expect(mx.reason).toMatch(/DNS resolver did not answer/);
    expect(r.summary.overallRisk).not.toBe('LOW');
  });

  it('a resolver that never answers: could not check, never "No records"', async () => {
    fake.faults.dns = 'silent';
    const r = await search('domain', FAKE.domain);
    const dns = byName(r.sources, 'DNS Records');
    expect(dns.state).toBe('could_not_check');
    expect(dns.status).not.toBe('No records');
    expect(r.summary.overallRisk).toBe('INCONCLUSIVE');
    await stillServing();
  });
});

describe('services down or answering garbage', () => {
  it('down: Gravatar and HIBP could not check; the summary is not LOW; recovers', async () => {
    fake.faults.services = 'down';
    const r = await search('email', FAKE.gravatarEmail);
    for (const name of ['Gravatar', 'Have I Been Pwned']) {
      expect(byName(r.sources, name)).toMatchObject({
        state: 'could_not_check',
        reason: 'The source could not be reached',
      });
    }
    expect(r.summary.overallRisk).toBe('INCONCLUSIVE');
    fake.faults.services = 'ok';
    const after = await search('email', FAKE.gravatarEmail);
    expect(byName(after.sources, 'Gravatar').state).toBe('found');
  });

  it('garbage: RDAP, crt.sh, Gravatar and HIBP say the answer could not be read', async () => {
    fake.faults.services = 'garbage';
    const domain = await search('domain', FAKE.domain);
    for (const name of ['RDAP Registration', 'Certificate Transparency']) {
      expect(byName(domain.sources, name).state).toBe('could_not_check');
    }
    expect(byName(domain.sources, 'Certificate Transparency').reason).toBe(
      'The source gave an answer that could not be read',
    );
    const email = await search('email', FAKE.breachedEmail);
    expect(byName(email.sources, 'Have I Been Pwned')).toMatchObject({
      state: 'could_not_check',
      reason: 'The source gave an answer that could not be read',
    });
    await stillServing();
  });
});
