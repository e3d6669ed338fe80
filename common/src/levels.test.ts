import { describe, expect, it } from 'vitest';
import { hasLevel, levelRank } from './levels.ts';

describe('access levels', () => {
  it('orders viewer < user < moderator < admin', () => {
    expect(levelRank('viewer')).toBeLessThan(levelRank('user'));
    expect(levelRank('user')).toBeLessThan(levelRank('moderator'));
    expect(levelRank('moderator')).toBeLessThan(levelRank('admin'));
  });
  it('passes at or above the required level', () => {
    expect(hasLevel('admin', 'user')).toBe(true);
    expect(hasLevel('user', 'user')).toBe(true);
    expect(hasLevel('viewer', 'user')).toBe(false);
  });
  it('treats a missing or unknown level as viewer', () => {
    expect(hasLevel(undefined, 'user')).toBe(false);
    expect(hasLevel('superuser', 'user')).toBe(false);
    expect(hasLevel(null, 'viewer')).toBe(true);
  });
});
