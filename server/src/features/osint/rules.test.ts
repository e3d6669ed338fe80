import { describe, expect, it } from 'vitest';
import { normalizeQuery } from './queries.ts';
import {
  breachRisk,
  mailAuthRisk,
  overallRisk,
  phoneRisk,
  platformRisk,
  registrationRisk,
  siteRisk,
  subdomainRisk,
} from './risk.ts';
import { loadSites, type Site, siteUrls, TOP_SITE_NAMES, topSites } from './sites.ts';
import { disposableMatch } from './sources/email.ts';
import { candidateUsernames } from './sources/person.ts';
import { judge, type SiteAnswer } from './verdict.ts';

/** The risk rules of docs/osint.md, the WhatsMyName judgement, the shipped site list and query forms. */

const DAY = 86_400_000;

const risk = (r: { risk: string }) => r.risk;

describe('risk rules', () => {
  it('platforms: 0 none, 1–4 low, 5–14 medium, 15+ high; candidate usernames informational', () => {
    expect([0, 1, 4, 5, 14, 15].map((n) => risk(platformRisk(n)))).toEqual([
      'none',
      'low',
      'low',
      'medium',
      'medium',
      'high',
    ]);
    expect(platformRisk(15).rule).toMatch(/15 platforms/);
    expect(risk(platformRisk(20, 'candidate'))).toBe('none');
  });
  it('breaches: high when a password, card or identity number leaked, or 3+ breaches; medium for contact data only', () => {
    const contact = { name: 'Forum', dataClasses: ['Email addresses', 'Usernames'] };
    const passwords = { name: 'Adobe', dataClasses: ['Email addresses', 'Passwords'] };
    expect(breachRisk([])).toEqual({ risk: 'none', rule: null });
    expect(risk(breachRisk([contact]))).toBe('medium');
    expect(breachRisk([passwords])).toEqual({ risk: 'high', rule: 'Adobe exposed passwords' });
    expect(risk(breachRisk([contact, contact, contact]))).toBe('high');
  });
  it('SPF +all high; no SPF, no DMARC or ?all medium; DMARC p=none low', () => {
    expect(risk(mailAuthRisk('v=spf1 +all', 'v=DMARC1; p=reject'))).toBe('high');
    expect(risk(mailAuthRisk('v=spf1 include:x all', 'v=DMARC1; p=reject'))).toBe('high');
    expect(risk(mailAuthRisk('v=spf1 ?all', 'v=DMARC1; p=reject'))).toBe('medium');
    expect(risk(mailAuthRisk(null, 'v=DMARC1; p=reject'))).toBe('medium');
    expect(risk(mailAuthRisk('v=spf1 -all', null))).toBe('medium');
    expect(risk(mailAuthRisk('v=spf1 -all', 'v=DMARC1; p=none'))).toBe('low');
    expect(risk(mailAuthRisk('v=spf1 -all', 'v=DMARC1; p=quarantine'))).toBe('none');
    expect(risk(mailAuthRisk('v=spf1 ~all', 'v=DMARC1; p=quarantine'))).toBe('none');
  });
  it('certificate: expired or untrusted high, ≤14 days medium, missing HSTS/CSP low', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const inDays = (d: number) => new Date(now + d * DAY).toISOString();
    expect(risk(siteRisk({ validTo: inDays(-1), authorized: true }, [], now))).toBe('high');
    expect(risk(siteRisk({ validTo: inDays(90), authorized: false }, [], now))).toBe('high');
    expect(risk(siteRisk({ validTo: inDays(14), authorized: true }, [], now))).toBe('medium');
    expect(risk(siteRisk({ validTo: inDays(15), authorized: true }, ['content-security-policy'], now))).toBe(
      'low',
    );
    expect(risk(siteRisk({ validTo: inDays(90), authorized: true }, [], now))).toBe('none');
  });
  it('registration lapsing within 30 days is medium; > 25 CT subdomains low', () => {
    const now = Date.now();
    expect(risk(registrationRisk(new Date(now + 29 * DAY).toISOString(), now))).toBe('medium');
    expect(risk(registrationRisk(new Date(now + 31 * DAY).toISOString(), now))).toBe('none');
    expect(risk(subdomainRisk(26))).toBe('low');
    expect(risk(subdomainRisk(25))).toBe('none');
  });
  it('phone: valid low, VoIP or premium-rate medium, invalid none', () => {
    expect(risk(phoneRisk(true, 'MOBILE'))).toBe('low');
    expect(risk(phoneRisk(true, 'VOIP'))).toBe('medium');
    expect(risk(phoneRisk(false, undefined))).toBe('none');
  });
  it('overall: any high or 3 medium → HIGH; any medium or 3 low → MEDIUM; else LOW only if every source checked', () => {
    type R = 'high' | 'medium' | 'low' | 'none';
    const s = (r: R, state: 'found' | 'not_found' | 'could_not_check' = 'found', status = 'x') => ({
      risk: r,
      state,
      name: `S-${r}`,
      reason: state === 'could_not_check' ? 'Timed out' : null,
      status,
    });
    const r = (...risks: R[]) => overallRisk(risks.map((x) => s(x))).overallRisk;
    expect(r('high')).toBe('HIGH');
    expect(r('medium', 'medium', 'medium')).toBe('HIGH');
    expect(r('medium', 'none')).toBe('MEDIUM');
    expect(r('low', 'low', 'low')).toBe('MEDIUM');
    expect(r('low', 'low', 'none')).toBe('LOW');
    // Could not check: never LOW, and it says which.
    const unchecked = overallRisk([s('none', 'could_not_check'), s('none', 'not_found')]);
    expect(unchecked.overallRisk).toBe('INCONCLUSIVE');
    expect(unchecked.inconclusive).toBe('Could not check 1 of 2 sources: S-none (Timed out)');
    expect(overallRisk([s('none', 'could_not_check')]).overallRisk).toBe('INCONCLUSIVE');
    // Evidence that was found still counts.
    expect(overallRisk([s('high'), s('none', 'could_not_check')]).overallRisk).toBe('HIGH');
    // Found on 2 sites while 300 of 400 could not be checked: not LOW either.
    const partly = {
      ...s('low'),
      name: 'Social Media Platforms',
      data: { summary: { foundOn: 2, totalPlatforms: 400, unknown: 300 } },
    };
    expect(overallRisk([partly])).toMatchObject({
      overallRisk: 'INCONCLUSIVE',
      inconclusive:
        'Could not check 1 of 1 source: Social Media Platforms (300 of 400 sites could not be checked)',
    });
    expect(
      overallRisk([{ ...partly, data: { summary: { foundOn: 2, totalPlatforms: 400, unknown: 10 } } }])
        .overallRisk,
    ).toBe('LOW');
    // A source the portal has not configured is a choice shown on its card, not a failure.
    expect(
      overallRisk([s('none', 'not_found'), s('none', 'could_not_check', 'Not configured')]).overallRisk,
    ).toBe('LOW');
  });
});

describe('the verdict on a site answer', () => {
  const site: Site = {
    name: 'S',
    uri_check: 'https://s.example/u/{account}',
    e_code: 200,
    e_string: 'profile',
    m_code: 404,
    m_string: 'no such user',
    cat: 'social',
  };
  const answer = (status: number, head: string, extra: Partial<SiteAnswer> = {}): SiteAnswer => ({
    status,
    headers: {},
    head,
    hasHit: head.includes('profile'),
    hasMiss: head.includes('no such user'),
    hasAccount: head.includes('bob'),
    ...extra,
  });
  const v = (s: Site, a: SiteAnswer) => judge(s, a, 'bob');
  it('found needs the hit code and string; not found the miss code and string; anything else is unknown', () => {
    expect(v(site, answer(200, '<div>profile</div>'))).toEqual({ outcome: 'found' });
    expect(v(site, answer(404, 'no such user'))).toEqual({ outcome: 'not_found' });
    expect(v(site, answer(404, 'a different 404 page')).outcome).toBe('unknown');
    expect(v({ ...site, m_string: '' }, answer(404, 'anything'))).toEqual({ outcome: 'not_found' });
  });
  it('block and challenge pages are unknown with their reason, even where the miss rule would match', () => {
    const anyMiss = { ...site, m_code: 403, m_string: '' };
    expect(v(anyMiss, answer(403, '<title>Just a moment...</title>'))).toEqual({
      outcome: 'unknown',
      reason: 'Blocked by a bot check (Cloudflare)',
    });
    expect(v(anyMiss, answer(403, 'x', { headers: { 'cf-mitigated': 'challenge' } })).reason).toMatch(
      /Cloudflare/,
    );
    expect(v(anyMiss, answer(403, '<title>DDoS-Guard</title>')).reason).toMatch(/DDoS-Guard/);
    expect(v(anyMiss, answer(403, 'Request unsuccessful. Incapsula incident ID: 1')).reason).toMatch(
      /Incapsula/,
    );
    expect(
      v({ ...site, m_code: 200, m_string: '' }, answer(200, '<div class="g-recaptcha"></div>')).reason,
    ).toBe('Asked for a captcha');
    expect(v({ ...site, m_code: 503, m_string: '' }, answer(503, 'maintenance')).reason).toBe(
      'The site had an error (HTTP 5xx)',
    );
    expect(v(site, answer(429, '')).reason).toBe('Rate limited by the site');
  });
  it('redirects: a login redirect is unknown; a 3xx hit with no hit string needs the account in the Location', () => {
    const missBy302 = { ...site, m_code: 302, m_string: '' };
    expect(v(missBy302, answer(302, '', { headers: { location: '/' } }))).toEqual({ outcome: 'not_found' });
    expect(v(missBy302, answer(302, '', { headers: { location: '/login?next=/u/bob' } })).reason).toBe(
      'Redirected to a login page',
    );
    const hitBy301 = { ...site, e_code: 301, e_string: '' };
    expect(v(hitBy301, answer(301, '', { headers: { location: 'https://s.example/people/Bob' } }))).toEqual({
      outcome: 'found',
    });
    expect(v(hitBy301, answer(301, '', { headers: { location: 'https://s.example/' } })).outcome).toBe(
      'unknown',
    );
  });
  it('the "account must appear" guard turns a hit without the account into unknown', () => {
    const guarded = { ...site, account_must_appear: true };
    expect(v(guarded, answer(200, 'profile of bob')).outcome).toBe('found');
    expect(v(guarded, answer(200, 'profile of someone')).outcome).toBe('unknown');
  });
  it('builds the check URL with the account encoded and bad characters stripped', () => {
    expect(siteUrls({ ...site, strip_bad_char: '.' }, 'a.b c').check).toBe('https://s.example/u/ab%20c');
  });
});

describe('the shipped site list', () => {
  it('has at least 500 usable sites, including every top site', () => {
    const sites = loadSites();
    expect(sites.length).toBeGreaterThanOrEqual(500);
    expect(
      topSites(sites)
        .map((s) => s.name)
        .sort(),
    ).toEqual([...TOP_SITE_NAMES].sort());
    expect(sites.some((s) => s.cat === 'xx NSFW xx')).toBe(false);
  });
});

describe('query forms', () => {
  it('normalises each type or refuses it', () => {
    expect(normalizeQuery('domain', 'https://WWW.Example.com/path?q')).toBe('www.example.com');
    expect(normalizeQuery('email', 'Jane.Doe@Example.COM')).toBe('Jane.Doe@example.com');
    expect(normalizeQuery('ip', '0177.0.0.1')).toBe('127.0.0.1');
    expect(normalizeQuery('ip', '2130706433')).toBe('127.0.0.1');
    expect(normalizeQuery('ip', '[::1]')).toBe('::1');
    expect(normalizeQuery('username', '@johndoe')).toBe('johndoe');
    expect(() => normalizeQuery('domain', '0x7f.1')).toThrow();
    expect(() => normalizeQuery('domain', 'localhost')).toThrow();
  });
  it('refuses NUL and other control characters in every type with a 400', () => {
    for (const [type, q] of [
      ['email', 'a\u0000b@example.com'],
      ['username', 'bob\u0000'],
      ['person', 'Jane\u0007 Doe'],
      ['domain', 'exa\u200bmple.com'],
    ] as const) {
      expect(() => normalizeQuery(type, q)).toThrow(expect.objectContaining({ statusCode: 400 }));
    }
  });
  it('disposable domains: exact, and any subdomain of a wildcard entry', () => {
    const lists = { exact: new Set(['mailinator.com']), wildcard: new Set(['mailinator.com', '33mail.com']) };
    expect(disposableMatch(lists, 'mailinator.com')).toBe('mailinator.com');
    expect(disposableMatch(lists, 'sub.mailinator.com')).toBe('mailinator.com');
    expect(disposableMatch(lists, 'x.y.33mail.com')).toBe('33mail.com');
    expect(disposableMatch(lists, 'example.com')).toBeNull();
  });
  it('candidate usernames from a name', () => {
    expect(candidateUsernames('José  Álvarez')).toEqual([
      'josealvarez',
      'jose.alvarez',
      'jose_alvarez',
      'jalvarez',
      'alvarezjose',
      'josea',
    ]);
  });
});
