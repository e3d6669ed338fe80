import { ConfigError, loadConfig } from '../config.ts';
import { migrateToLatest, openDb } from '../db/index.ts';
import { bootstrapUsers } from '../features/users/bootstrap.ts';
import { loadDotEnv } from '../platform/dotenv.ts';
import { runAdminCommand } from './admin-commands.ts';

/**
 * `npm run admin -- <command>`: the host's command line. It reads the configuration exactly as the
 * server does (.env, DATA_DIR, DATABASE_URL), so it works on the same database, running or not.
 */
async function main(): Promise<number> {
  loadDotEnv();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
  const db = openDb(config.databaseUrl);
  try {
    await migrateToLatest(db);
    await bootstrapUsers(db, config.adminDiscordIds);
    return await runAdminCommand(db, process.argv.slice(2), {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
