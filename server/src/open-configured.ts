import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Db, migrateToLatest, openDb } from './db/index.ts';
import { bootstrapUsers } from './features/users/index.ts';
import { loadDotEnv } from './platform/dotenv.ts';

/**
 * What the server and the admin command line share: read `.env` and the environment, open the
 * database, migrate it and bootstrap the users. A wrong configuration prints its message (naming the
 * variable) and yields null, so each caller exits its own way.
 */
export async function openConfigured(): Promise<{ config: Config; db: Db } | null> {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    return null;
  }
  const db = openDb(config.databaseUrl);
  try {
    await migrateToLatest(db);
    await bootstrapUsers(db, config.adminDiscordIds);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return { config, db };
}
