import {
  ROLE_SYNC_BRAKE_MAX,
  ROLE_SYNC_INTERVAL_MAX_SECONDS,
  type RoleSyncSettings,
} from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import {
  accessLabel,
  changesOf,
  choiceOf,
  draftOf,
  formatInterval,
  heldTitle,
  ROLE_SYNC_FORM_TEXTS,
  roleRows,
  withChoice,
} from './role-sync.ts';

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

const SETTINGS: RoleSyncSettings = {
  enabled: false,
  guildId: '710000000000000001',
  roleLevels: [{ roleId: '720000000000000002', level: 'moderator' }],
  noRole: 'pending',
  denyRoles: [],
  demotionBrake: 5,
  intervalSeconds: 600,
};

describe('saving the role sync form', () => {
  it('sends nothing when the draft is the settings in force, whatever the order of the roles', () => {
    expect(changesOf(draftOf(SETTINGS), SETTINGS)).toEqual({ body: {} });
    const twoRoles = {
      ...SETTINGS,
      roleLevels: [...SETTINGS.roleLevels, { roleId: '720000000000000003', level: 'user' as const }],
      denyRoles: ['720000000000000005', '720000000000000004'],
    };
    const reordered = {
      ...draftOf(twoRoles),
      roleLevels: [...twoRoles.roleLevels].reverse(),
      denyRoles: [...twoRoles.denyRoles].reverse(),
    };
    expect(changesOf(reordered, twoRoles)).toEqual({ body: {} });
  });

  it('sends only what changed, the numbers as numbers', () => {
    const draft = {
      ...draftOf(SETTINGS),
      enabled: true,
      ...withChoice('720000000000000002', 'admin', SETTINGS.roleLevels, SETTINGS.denyRoles),
      demotionBrake: ' 0 ',
      intervalSeconds: '10',
    };
    expect(changesOf(draft, SETTINGS)).toEqual({
      body: {
        enabled: true,
        roleLevels: [{ roleId: '720000000000000002', level: 'admin' }],
        demotionBrake: 0,
        intervalSeconds: 10,
      },
    });
    expect(changesOf({ ...draftOf(SETTINGS), noRole: 'viewer' }, SETTINGS)).toEqual({
      body: { noRole: 'viewer' },
    });
  });

  it('refuses a brake or an interval the API would refuse, with the reason', () => {
    for (const brake of ['', '-1', '1.5', 'five', String(ROLE_SYNC_BRAKE_MAX + 1)])
      expect(changesOf({ ...draftOf(SETTINGS), demotionBrake: brake }, SETTINGS)).toEqual({
        problem: ROLE_SYNC_FORM_TEXTS.brake,
      });
    expect(changesOf({ ...draftOf(SETTINGS), demotionBrake: String(ROLE_SYNC_BRAKE_MAX) }, SETTINGS)).toEqual(
      { body: { demotionBrake: ROLE_SYNC_BRAKE_MAX } },
    );
    for (const interval of ['', '9', '60.5', String(ROLE_SYNC_INTERVAL_MAX_SECONDS + 1)])
      expect(changesOf({ ...draftOf(SETTINGS), intervalSeconds: interval }, SETTINGS)).toEqual({
        problem: ROLE_SYNC_FORM_TEXTS.interval,
      });
    expect(ROLE_SYNC_FORM_TEXTS.interval).toBe(
      'The re-check interval must be whole seconds from 10 to 86400.',
    );
  });
});

describe('role sync texts', () => {
  it('says the interval in hours, minutes and seconds', () => {
    expect(formatInterval(600)).toBe('10 min');
    expect(formatInterval(10)).toBe('10 s');
    expect(formatInterval(5400)).toBe('1 h 30 min');
    expect(formatInterval(3661)).toBe('1 h 1 min 1 s');
    expect(formatInterval(86_400)).toBe('24 h');
  });

  it('counts held demotions in words that agree with the number', () => {
    expect(heldTitle(1, 0)).toBe(
      '1 demotion is held for your confirmation: the sync would demote more than 0 at once.',
    );
    expect(heldTitle(6, 5)).toBe(
      '6 demotions are held for your confirmation: the sync would demote more than 5 at once.',
    );
  });

  it('names a held change’s access by its level, or no access', () => {
    expect(accessLabel('moderator', true)).toBe('Moderator');
    expect(accessLabel('moderator', false)).toBe('No access');
  });
});

describe('the role list', () => {
  const role = (id: string, name: string) => ({ id, name, color: 0, position: 1, managed: false });
  it('keeps the bot’s order and adds mapped or denied roles the server no longer has, once each', () => {
    const rows = roleRows(
      [role('2', 'Mod'), role('1', 'Member')],
      [
        { roleId: '1', level: 'user' },
        { roleId: '9', level: 'admin' },
      ],
      ['9', '8'],
    );
    expect(rows.map((r) => [r.id, r.name, r.isGone])).toEqual([
      ['2', 'Mod', false],
      ['1', 'Member', false],
      ['9', 'Role 9', true],
      ['8', 'Role 8', true],
    ]);
  });
});
