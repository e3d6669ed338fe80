import { openConfigured } from '../open-configured.ts';
import { runAdminCommand } from './admin-commands.ts';
import { runStorageCommand } from './storage-commands.ts';

/**
 * `npm run admin -- <command>`: the host's command line. It reads the configuration exactly as the
 * server does (.env, DATA_DIR, DATABASE_URL), so it works on the same database, running or not.
 */
async function main(): Promise<number> {
  const opened = await openConfigured();
  if (!opened) return 1;
  const { db } = opened;
  const argv = process.argv.slice(2);
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  try {
    if (argv[0] === 'storage') return await runStorageCommand(db, opened.config, argv.slice(1), io);
    return await runAdminCommand(db, argv, io);
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
