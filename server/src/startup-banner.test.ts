import { describe, expect, it } from 'vitest';
import { listenUrl, startupBanner } from './startup-banner.ts';

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
    expect(text).toMatch(/Next step: +sign in with the access code, open the Admin Panel/);
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
