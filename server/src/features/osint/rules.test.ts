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
import { judgeResponse, loadSites, type Site, siteUrls, TOP_SITE_NAMES, topSites } from './sites.ts';
import { candidateUsernames } from './sources/person.ts';

/** The risk rules of docs/osint.md, the WhatsMyName judgement, the shipped site list and query forms. */

const DAY = 86_400_000;

describe('risk rules', () => {
  it('platforms: 0 none, 1–4 low, 5–14 medium, 15+ high', () => {
    expect([0, 1, 4, 5, 14, 15].map(platformRisk)).toEqual([
      'none',
      'low',
      'low',
      'medium',
      'medium',
      'high',
    ]);
  });
  it('a breached e-mail is high', () => {
    expect(breachRisk(1)).toBe('high');
    expect(breachRisk(0)).toBe('none');
  });
  it('no SPF or no DMARC is medium, DMARC p=none is low', () => {
    expect(mailAuthRisk(null, 'v=DMARC1; p=reject')).toBe('medium');
    expect(mailAuthRisk('v=spf1 -all', null)).toBe('medium');
    expect(mailAuthRisk('v=spf1 -all', 'v=DMARC1; p=none')).toBe('low');
    expect(mailAuthRisk('v=spf1 -all', 'v=DMARC1; p=quarantine')).toBe('none');
  });
  it('certificate: expired or untrusted high, ≤14 days medium, missing HSTS/CSP low', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const inDays = (d: number) => new Date(now + d * DAY).toISOString();
    expect(siteRisk({ validTo: inDays(-1), authorized: true }, [], now)).toBe('high');
    expect(siteRisk({ validTo: inDays(90), authorized: false }, [], now)).toBe('high');
    expect(siteRisk({ validTo: inDays(14), authorized: true }, [], now)).toBe('medium');
    expect(siteRisk({ validTo: inDays(15), authorized: true }, ['content-security-policy'], now)).toBe('low');
    expect(siteRisk({ validTo: inDays(90), authorized: true }, [], now)).toBe('none');
  });
  it('registration lapsing within 30 days is medium; > 25 CT subdomains low', () => {
    const now = Date.now();
    expect(registrationRisk(new Date(now + 29 * DAY).toISOString(), now)).toBe('medium');
    expect(registrationRisk(new Date(now + 31 * DAY).toISOString(), now)).toBe('none');
    expect(subdomainRisk(26)).toBe('low');
    expect(subdomainRisk(25)).toBe('none');
  });
  it('phone: valid low, VoIP or premium-rate medium, invalid none', () => {
    expect(phoneRisk(true, 'MOBILE')).toBe('low');
    expect(phoneRisk(true, 'VOIP')).toBe('medium');
    expect(phoneRisk(false, undefined)).toBe('none');
  });
  it('overall: any high or 3 medium → HIGH; any medium or 3 low → MEDIUM; else LOW', () => {
    const r = (...risks: ('high' | 'medium' | 'low' | 'none')[]) =>
      overallRisk(risks.map((risk) => ({ risk })));
    expect(r('high')).toBe('HIGH');
    expect(r('medium', 'medium', 'medium')).toBe('HIGH');
    expect(r('medium', 'none')).toBe('MEDIUM');
    expect(r('low', 'low', 'low')).toBe('MEDIUM');
    expect(r('low', 'low', 'none')).toBe('LOW');
    expect(r()).toBe('LOW');
  });
});

describe('the WhatsMyName judgement', () => {
  const site: Site = {
    name: 'S',
    uri_check: 'https://s.example/u/{account}',
    e_code: 200,
    e_string: 'profile',
    m_code: 404,
    m_string: 'no such user',
    cat: 'social',
  };
  it('found needs the hit code and string; not found the miss code and string; anything else is unknown', () => {
    expect(judgeResponse(site, 200, '<div>profile</div>')).toBe('found');
    expect(judgeResponse(site, 404, 'no such user')).toBe('not_found');
    expect(judgeResponse(site, 200, 'Just a moment... captcha')).toBe('unknown');
    expect(judgeResponse(site, 429, 'rate limited')).toBe('unknown');
    expect(judgeResponse(site, 404, 'a different 404 page')).toBe('unknown');
    expect(judgeResponse({ ...site, m_string: '' }, 404, 'anything')).toBe('not_found');
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
