import { parseArgs } from 'node:util';
import {
  ACCESS_LEVELS,
  AUDIT_PAGE_DEFAULT,
  AuditQuery,
  DEMO_USER_ID,
  UserCreateBody,
  UserUpdateBody,
} from '@guildhall/common';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import {
  CLI_ACTOR,
  createUser,
  listAudit,
  listUsers,
  removeUser,
  revokeSessions,
  updateUser,
} from '../features/admin/index.ts';
import { isSetupMode } from '../features/users/index.ts';
import { fail, HttpError } from '../platform/errors.ts';
import { BACKUP_USAGE } from './backup-commands.ts';
import { OSINT_USAGE } from './osint-commands.ts';
import { STORAGE_USAGE } from './storage-commands.ts';

export const USAGE = `Guildhall admin — manage users on the server's database (same DATA_DIR / DATABASE_URL / .env).

Usage: npm run admin -- <command> [arguments]

  list [--pending]                            every user (or only those waiting for approval)
  add <discord_id> <username> [--level L] [--email E] [--pending]
                                              add a user, approved unless --pending (level: user)
  approve <discord_id> [--level L]            approve a pending user, optionally at a level
  set-level <discord_id> <level>              change a user's access level
  remove <discord_id>                         remove a user and end their sessions
  revoke-sessions <discord_id>                sign a user out everywhere
  audit [--limit N]                           recent admin changes, newest first (default ${AUDIT_PAGE_DEFAULT})
${STORAGE_USAGE}
${OSINT_USAGE}
${BACKUP_USAGE}
  help, --help, -h                            this text

Options: --force  make an admin even though Discord sign-in is not configured (see below)

Levels: ${ACCESS_LEVELS.join(', ')}. Changes are recorded in the audit trail with actor "cli".
First admin on a fresh install:  npm run admin -- add <your Discord id> <your name> --level admin
  (this ends setup mode: configure Discord sign-in first, or you cannot sign in as that admin).
Locked out after setup mode ended?  npm run admin -- set-level ${DEMO_USER_ID} admin
  makes the access code sign in as admin again.`;

export type Output = { out: (line: string) => void; err: (line: string) => void };

/** What the command needs to know about the server's configuration. */
export type AdminCommandOptions = {
  /** Discord sign-in is configured: without it, a real admin could never sign in. */
  oauthConfigured: boolean;
};

class UsageError extends Error {}

/** Runs one admin command against `db`; returns the process exit code (0 ok, 1 refused, 2 usage). */
export async function runAdminCommand(
  db: Db,
  argv: string[],
  io: Output,
  options: AdminCommandOptions = { oauthConfigured: true },
): Promise<number> {
  try {
    return await dispatch(db, argv, io, options);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`Error: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof HttpError) {
      io.err(`Error: ${e.message}`);
      if (e.code === 'DUPLICATE_USER') {
        io.err('Hint: a user who already signed in with Discord is pending; use `approve <discord_id>`.');
      }
      return 1;
    }
    throw e;
  }
}

async function dispatch(db: Db, argv: string[], io: Output, options: AdminCommandOptions): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, ...args] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const wasSetupMode = await isSetupMode(db);
  if (wasSetupMode && !options.oauthConfigured && !values.force) {
    const admin = await wouldMakeRealAdmin(db, command, args, values);
    if (admin) {
      io.err(endsSetupModeWarning(admin));
      return 1;
    }
  }
  switch (command) {
    case undefined:
    case 'help':
      io.out(USAGE);
      return 0;
    case 'list': {
      expectArgs(args, 0, 'list');
      const rows = (await listUsers(db)).filter((u) => !values.pending || u.is_approved !== 1);
      io.out(formatUsers(rows));
      return 0;
    }
    case 'add': {
      const [discordId = '', username = ''] = expectArgs(args, 2, 'add <discord_id> <username>');
      const input = validate(UserCreateBody, {
        discord_id: discordId,
        username,
        access_level: values.level ?? 'user',
        email: values.email,
        is_approved: !values.pending,
      });
      const row = await createUser(db, CLI_ACTOR, input);
      io.out(`Added ${describe(row)}.`);
      break;
    }
    case 'approve': {
      const [discordId = ''] = expectArgs(args, 1, 'approve <discord_id>');
      const input = validate(UserUpdateBody, { is_approved: true, access_level: values.level });
      io.out(`Approved ${describe(await updateUser(db, CLI_ACTOR, discordId, input))}.`);
      break;
    }
    case 'set-level': {
      const [discordId = '', level = ''] = expectArgs(args, 2, 'set-level <discord_id> <level>');
      const input = validate(UserUpdateBody, { access_level: level });
      io.out(`Updated ${describe(await updateUser(db, CLI_ACTOR, discordId, input))}.`);
      break;
    }
    case 'remove': {
      const [discordId = ''] = expectArgs(args, 1, 'remove <discord_id>');
      const { removed, sessionsEnded } = await removeUser(db, CLI_ACTOR, discordId);
      io.out(`Removed ${describe(removed)}; ended ${sessionsEnded} session(s).`);
      break;
    }
    case 'revoke-sessions': {
      const [discordId = ''] = expectArgs(args, 1, 'revoke-sessions <discord_id>');
      const ended = await revokeSessions(db, CLI_ACTOR, discordId);
      io.out(`Ended ${ended} session(s) of ${discordId}.`);
      break;
    }
    case 'audit': {
      expectArgs(args, 0, 'audit');
      const { limit } = validate(AuditQuery, { limit: values.limit });
      for (const e of await listAudit(db, limit)) {
        const changes = e.changes.map((c) => `${c.field}: ${show(c.before)} → ${show(c.after)}`).join(', ');
        io.out(`${e.at}  ${e.actor_name}  ${e.action}  ${e.target_name} (${e.target_id})  ${changes}`);
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
  const isNowSetupMode = await isSetupMode(db);
  if (wasSetupMode && !isNowSetupMode) {
    io.out('Setup mode is over: an approved admin exists, so the access code now signs in at its own level.');
  }
  if (isNowSetupMode) {
    io.out('Still in setup mode (no approved admin): the access code signs in as admin.');
  }
  return 0;
}

/**
 * The Discord id the command would make an approved admin (which ends setup mode), or null. Predicted
 * before the change, so the command can refuse without undoing anything.
 */
async function wouldMakeRealAdmin(
  db: Db,
  command: string | undefined,
  args: string[],
  values: { level?: string; pending?: boolean },
): Promise<string | null> {
  const [discordId] = args;
  if (!discordId || discordId === DEMO_USER_ID) return null;
  if (command === 'add') return values.level === 'admin' && !values.pending ? discordId : null;
  const current = (await listUsers(db)).find((u) => u.discord_id === discordId);
  if (!current) return null;
  if (command === 'approve') return (values.level ?? current.access_level) === 'admin' ? discordId : null;
  if (command === 'set-level') return args[1] === 'admin' && current.is_approved === 1 ? discordId : null;
  return null;
}

function endsSetupModeWarning(discordId: string): string {
  return [
    `Warning: making ${discordId} an approved admin ends setup mode, but Discord sign-in is not configured`,
    '(DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_REDIRECT_URI). The access code would then sign in',
    'at its own level (viewer) and nobody could reach the admin panel.',
    'Configure Discord sign-in first (README, "Registering the Discord application"), or repeat with --force.',
    `If it is already too late: npm run admin -- set-level ${DEMO_USER_ID} admin`,
  ].join('\n');
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        level: { type: 'string', short: 'l' },
        email: { type: 'string' },
        pending: { type: 'boolean' },
        limit: { type: 'string' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function expectArgs(args: string[], n: number, form: string): string[] {
  if (args.length !== n) throw new UsageError(`expected: ${form}`);
  return args;
}

/** The API's own schemas, so the command line accepts exactly what the API accepts. */
function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const clean = Object.fromEntries(Object.entries(input as object).filter(([, v]) => v !== undefined));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) throw fail('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'invalid input');
  return parsed.data;
}

function describe(u: UsersTable): string {
  return `${u.username} (${u.discord_id}) as ${u.access_level}${u.is_approved === 1 ? '' : ', pending approval'}`;
}

function show(v: unknown): string {
  return v === null ? '∅' : String(v);
}

function formatUsers(rows: UsersTable[]): string {
  if (rows.length === 0) return 'No users.';
  const table = [
    ['DISCORD ID', 'USERNAME', 'LEVEL', 'STATUS', 'LAST LOGIN'],
    ...rows.map((u) => [
      u.discord_id,
      u.username,
      u.access_level,
      u.is_approved === 1 ? 'approved' : 'pending',
      u.last_login ?? 'never',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
