// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { claimCode } from './callback-guard.ts';

describe('duplicate OAuth code guard (5 s)', () => {
  it('lets a code through once and ignores a second handling in the same page', () => {
    expect(claimCode('code-a', 1000)).toBe('proceed');
    expect(claimCode('code-a', 2000)).toBe('same-page-duplicate');
  });

  it('reports a duplicate from another handling within 5 s, and allows it after', async () => {
    sessionStorage.setItem('discord_oauth_code_guard', JSON.stringify({ code: 'code-b', at: 10_000 }));
    expect(claimCode('code-b', 14_999)).toBe('duplicate');
    expect(claimCode('code-c', 14_999)).toBe('proceed');
    sessionStorage.setItem('discord_oauth_code_guard', JSON.stringify({ code: 'code-d', at: 10_000 }));
    expect(claimCode('code-d', 15_000)).toBe('proceed');
  });
});
