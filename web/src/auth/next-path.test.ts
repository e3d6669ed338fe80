// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './next-path.ts';

const ORIGIN = 'https://portal.example.org';

describe('safeNextPath: only same-origin paths (never an open redirect)', () => {
  it.each([
    ['/minigames/pictionary', '/minigames/pictionary'],
    ['/shared/abc123', '/shared/abc123'],
    ['/filesystem?folder=12#top', '/filesystem?folder=12#top'],
    ['/a/../settings', '/settings'],
  ])('keeps %s', (raw, expected) => {
    expect(safeNextPath(raw, ORIGIN)).toBe(expected);
  });

  it.each([
    'https://evil.example',
    'https://evil.example/dashboard',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /dashboard',
    'javascript:alert(1)',
    'data:text/html,hi',
    'dashboard',
    '',
    '/login',
    '/login?next=/admin',
    '/auth/discord/callback?code=1',
    `/${'a'.repeat(3000)}`,
    null,
    undefined,
    42,
  ])('refuses %j', (raw) => {
    expect(safeNextPath(raw, ORIGIN)).toBeNull();
  });
});

describe('loginPathFor', () => {
  it('carries the page in ?next=, and leaves plain /login for the dashboard', () => {
    expect(loginPathFor('/minigames/pictionary')).toBe('/login?next=%2Fminigames%2Fpictionary');
    expect(loginPathFor('/dashboard')).toBe('/login');
    expect(loginPathFor('//evil.example')).toBe('/login');
  });
});
