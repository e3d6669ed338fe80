import type { RoleSyncSettingsBody } from '@guildhall/common';
import type { Locator, Page } from '@playwright/test';
import type { FakeGuildFailure } from '../../server/src/test/fake-discord-bot/index.ts';
import { BASE_URL } from './env.ts';
import { BOT_CONTROL_URL, MUSIC_GUILD } from './music-env.ts';

/** Page object of the admin panel's "Roles from Discord" card (issue 43). */
export class RoleSyncCard {
  readonly page: Page;
  readonly card: Locator;
  constructor(page: Page) {
    this.page = page;
    this.card = page.getByTestId('role-sync');
  }

  get enabled(): Locator {
    return this.card.getByRole('checkbox', { name: "Levels follow the Discord server's roles" });
  }
  roleLevel(roleName: string): Locator {
    return this.card.getByRole('combobox', { name: `Level of role ${roleName}`, exact: true });
  }
  get noRole(): Locator {
    return this.card.getByLabel('A member with no mapped role is');
  }
  get brake(): Locator {
    return this.card.getByLabel('Demotion brake');
  }
  get interval(): Locator {
    return this.card.getByLabel('Re-check every (seconds)');
  }
  get save(): Locator {
    return this.card.getByRole('button', { name: 'Save settings' });
  }
  get held(): Locator {
    return this.card.getByTestId('role-sync-held');
  }
  get problem(): Locator {
    return this.card.getByTestId('role-sync-problem');
  }
  get paused(): Locator {
    return this.card.getByTestId('role-sync-paused');
  }
  get roles(): Locator {
    return this.card.getByTestId('role-sync-roles');
  }
}

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${BOT_CONTROL_URL}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fake Discord control ${path}: ${res.status} ${await res.text()}`);
}

/**
 * Makes `userId` a member of the e2e server with exactly these roles (as a moderator sets them in Discord),
 * and a server nickname when given.
 */
export function setGuildMember(
  userId: string,
  username: string,
  roles: string[],
  nick?: string,
): Promise<void> {
  return control('/members', { guildId: MUSIC_GUILD.id, userId, username, roles, nick });
}

/** Takes `userId` out of the e2e server (lookups answer 10007 Unknown Member until setGuildMember). */
export function leaveGuild(userId: string): Promise<void> {
  return control('/members/leave', { guildId: MUSIC_GUILD.id, userId });
}

/** Every guild route of the fake answers with this failure until called with null. */
export function failGuildRoutes(failure: FakeGuildFailure | null): Promise<void> {
  return control('/guild-failure', { failure });
}

async function adminApi(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Saves role sync settings through the admin API (a test's starting point, not what it shows). */
export async function saveRoleSync(token: string, body: RoleSyncSettingsBody): Promise<void> {
  const res = await adminApi(token, 'PUT', '/api/admin/role-sync', body);
  if (!res.ok) throw new Error(`PUT /api/admin/role-sync: ${res.status} ${await res.text()}`);
}

/**
 * Puts the shared portal back as the other browser tests expect it: the fake answering, nothing held, the
 * sync off and every setting at its default (switched off first, so clearing the mapping demotes nobody).
 */
export async function resetRoleSync(token: string): Promise<void> {
  await failGuildRoutes(null);
  await adminApi(token, 'POST', '/api/admin/role-sync/held/discard');
  await saveRoleSync(token, { enabled: false });
  await saveRoleSync(token, {
    enabled: null,
    roleLevels: [],
    denyRoles: [],
    noRole: null,
    demotionBrake: null,
    intervalSeconds: null,
  });
}
