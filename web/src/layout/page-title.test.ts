import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.ts';

describe('pageTitle', () => {
  it.each([
    ['/', 'Home · Guildhall'],
    ['/login', 'Login · Guildhall'],
    ['/filesystem', 'File System · Guildhall'],
    ['/filesystem/', 'File System · Guildhall'],
    ['/minigames/pictionary', 'Pictionary · Guildhall'],
    ['/shared/abc', 'Shared file · Guildhall'],
    ['/admin', 'Admin Panel · Guildhall'],
    ['/filesystm', 'Page not found · Guildhall'],
  ])('%s → %s', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });

  it('names every screen differently', () => {
    const paths = ['/', '/login', '/dashboard', '/admin', '/settings', '/infosec', '/filesystem', '/music'];
    expect(new Set(paths.map(pageTitle)).size).toBe(paths.length);
  });
});
