import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_USER_ID } from '@guildhall/common';
import { type App, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Db, migrateToLatest, openDb } from '../db/index.ts';
import { bootstrapUsers } from '../features/users/bootstrap.ts';
import { createSession } from '../platform/sessions.ts';
import { buildUser, type UserOverrides } from './factories.ts';

export const TEST_ACCESS_CODE = 'test-access-code-123';

export type TestContext = {
  app: App;
  db: Db;
  config: Config;
  dataDir: string;
  /** Creates an approved user at a level (or with overrides) and returns a session token for them. */
  signIn: (overrides?: UserOverrides) => Promise<{ token: string; userId: string }>;
  close: () => Promise<void>;
};

/**
 * A fresh app on a fresh temporary database and data dir. TEST_DATABASE_URL (PostgreSQL) is honoured
 * by callers that opt in; the default is an embedded SQLite file per context.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const db = openDb(config.databaseUrl);
  await migrateToLatest(db);
  await bootstrapUsers(db, config.adminDiscordIds);
  const app = await buildApp({ config, db, accessCode: TEST_ACCESS_CODE, logger: false });
  await app.ready();
  let seq = 0;
  return {
    app,
    db,
    config,
    dataDir,
    async signIn(overrides = {}) {
      seq += 1;
      const row = await buildUser(db, { username: `member${seq}`, ...overrides });
      return { token: await createSession(db, row.discord_id), userId: row.discord_id };
    },
    async close() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Leaves setup mode by adding a real admin, so the demo identity acts at its stored level. */
export async function leaveSetupMode(ctx: TestContext): Promise<void> {
  await buildUser(ctx.db, { access_level: 'admin', username: 'bootstrap-admin' });
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export { DEMO_USER_ID };
