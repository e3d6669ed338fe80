import { describe, expect, it } from 'vitest';
import { choiceOf, withChoice } from './role-sync.ts';

describe('role sync choices in the admin panel', () => {
  it('a role is mapped to one level, denied, or nothing, never two at once', () => {
    let state = withChoice('1', 'moderator', [], []);
    expect(choiceOf('1', state.roleLevels, state.denyRoles)).toBe('moderator');
    state = withChoice('1', 'deny', state.roleLevels, state.denyRoles);
    expect(state).toEqual({ roleLevels: [], denyRoles: ['1'] });
    expect(choiceOf('1', state.roleLevels, state.denyRoles)).toBe('deny');
    state = withChoice('1', 'user', state.roleLevels, state.denyRoles);
    expect(state).toEqual({ roleLevels: [{ roleId: '1', level: 'user' }], denyRoles: [] });
    state = withChoice('1', '', state.roleLevels, state.denyRoles);
    expect(state).toEqual({ roleLevels: [], denyRoles: [] });
    expect(choiceOf('2', state.roleLevels, state.denyRoles)).toBe('');
  });
});
