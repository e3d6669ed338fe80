import { openConfigured } from '../open-configured.ts';
import { runAdminCommand } from './admin-commands.ts';

/**
 * `npm run admin -- <command>`: the host's command line. It reads the configuration exactly as the
 * server does (.env, DATA_DIR, DATABASE_URL), so it works on the same database, running or not.
 */
async function main(): Promise<number> {
  const opened = await openConfigured();
  if (!opened) return 1;
  const { db } = opened;
  try {
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
