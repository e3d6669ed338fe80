import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Db, migrateToLatest, openDb, searchPathOf } from './db/index.ts';
import { bootstrapUsers } from './features/users/index.ts';
import { loadDotEnv } from './platform/dotenv.ts';
import { realClock } from './platform/feature.ts';

/**
 * `.env` and the environment read into a Config; a wrong configuration is reported (its message names
 * the variable) and yields null.
 */
export function loadConfigured(report: (message: string) => void): Config | null {
  loadDotEnv();
  try {
    return loadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    report(e.message);
    return null;
  }
}

/**
 * What the server and the admin command line share: read `.env` and the environment, open the
 * database, migrate it and bootstrap the users. A wrong configuration prints its message (naming the
 * variable) and yields null, so each caller exits its own way.
 */
export async function openConfigured(): Promise<{ config: Config; db: Db } | null> {
  const config = loadConfigured((message) => console.error(message));
  if (!config) return null;
  const db = openDb(config.databaseUrl);
  try {
    await migrateToLatest(db, searchPathOf(config.databaseUrl));
    await bootstrapUsers(db, config.discord.adminDiscordIds, realClock);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return { config, db };
}
