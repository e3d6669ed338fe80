import { describe, expect, it } from 'vitest';
import { accessCodeOriginMessage, listenUrl, startupBanner, startupWarnings } from './startup-banner.ts';

describe('the terminal start-up banner', () => {
  const facts = {
    url: 'http://localhost:3000',
    accessCode: 'abc123',
    accessCodeFile: '/data/access-code.txt',
    setupMode: true,
    oauthConfigured: false,
  };

  it('names the URL, the access code, setup mode and the next step', () => {
    const text = startupBanner(facts);
    expect(text).toContain('Open:         http://localhost:3000');
    expect(text).toContain('Access code:  abc123  (saved in /data/access-code.txt)');
    expect(text).toContain('Setup mode:   ON');
    // Without Discord sign-in, adding an admin would lock the host out: the banner says to configure it first.
    expect(text).toMatch(/Next step: +configure Discord sign-in first/);
    expect(text).toContain('sign-in NOT configured');
  });

  it('is a box of equal-width lines (readable, not a log line)', () => {
    const lines = startupBanner({ ...facts, setupMode: false, oauthConfigured: true })
      .trimEnd()
      .split('\n');
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines.join('\n')).toContain('Setup mode:   off');
    expect(lines.join('\n')).toContain('approve newcomers in the Admin Panel');
    expect(lines.some((l) => l.includes('{'))).toBe(false);
  });

  it('shows a wildcard listen address as localhost and prefers PUBLIC_URL', () => {
    expect(listenUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(listenUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(listenUrl('0.0.0.0', 3000, 'https://guild.example')).toBe('https://guild.example');
  });
});

describe('start-up log lines (issues 26, 32)', () => {
  it('says where the access code came from', () => {
    expect(accessCodeOriginMessage({ origin: 'env' })).toBe(
      'Using the access code from the ACCESS_CODE variable',
    );
    expect(accessCodeOriginMessage({ origin: 'database', file: '/d/access-code.txt' })).toBe(
      'Using the access code stored in the database (a copy is in /d/access-code.txt)',
    );
    expect(accessCodeOriginMessage({ origin: 'file', file: '/d/access-code.txt' })).toContain(
      'saved in /d/access-code.txt',
    );
    expect(accessCodeOriginMessage({ origin: 'generated', file: '/d/access-code.txt' })).toContain(
      'generated',
    );
  });

  it('warns when TRUST_PROXY is set and the portal listens beyond loopback', () => {
    expect(startupWarnings({ trustProxy: 1, host: '0.0.0.0' })).toEqual([
      expect.stringContaining('TRUST_PROXY is set but the portal listens on 0.0.0.0'),
    ]);
    expect(startupWarnings({ trustProxy: ['10.0.0.2'], host: '::' })).toHaveLength(1);
    expect(startupWarnings({ trustProxy: 1, host: '127.0.0.1' })).toEqual([]);
    expect(startupWarnings({ trustProxy: 1, host: '::1' })).toEqual([]);
    expect(startupWarnings({ trustProxy: false, host: '0.0.0.0' })).toEqual([]);
  });
});
