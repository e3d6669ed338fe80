import { isOAuthConfigured } from '../config.ts';
import { openConfigured } from '../open-configured.ts';
import { describeStartupFailure } from '../startup-failure.ts';
import { runAdminCommand, USAGE } from './admin-commands.ts';
import { runBackupCommand, runRestoreCommand } from './backup-commands.ts';
import { runOsintCommand } from './osint-commands.ts';
import { runStorageCommand } from './storage-commands.ts';

/**
 * `npm run admin -- <command>`: the host's command line. It reads the configuration exactly as the
 * server does (.env, DATA_DIR, DATABASE_URL), so it works on the same database, running or not.
 */
async function main(): Promise<number> {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  const args = process.argv.slice(2);
  // Help needs no database (and no valid configuration).
  if (args.length === 0 || args.some((a) => a === '--help' || a === '-h') || args[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  // Restore must find the target empty, so it runs before the database is opened (and created).
  if (process.argv[2] === 'restore') return await runRestoreCommand(process.argv.slice(3), io);
  const opened = await openConfigured();
  if (!opened) return 1;
  const { db } = opened;
  const argv = process.argv.slice(2);
  try {
    if (argv[0] === 'backup') return await runBackupCommand(db, opened.config, argv.slice(1), io);
    if (argv[0] === 'storage') return await runStorageCommand(db, opened.config, argv.slice(1), io);
    if (argv[0] === 'osint') return await runOsintCommand(db, opened.config, argv.slice(1), io);
    return await runAdminCommand(db, argv, io, { oauthConfigured: isOAuthConfigured(opened.config.auth) });
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // A setting to fix or a database that cannot be reached gets one line; anything else is a bug.
    const known = describeStartupFailure(e);
    console.error(known ? `Error: ${known}` : e);
    process.exitCode = 1;
  },
);
