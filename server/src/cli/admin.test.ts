import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEMO_USER_ID } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDb } from '../db/index.ts';
import { findUserById } from '../features/users/index.ts';
import { bearer, createTestApp, TEST_ACCESS_CODE, type TestContext } from '../test/app.ts';
import { snowflake } from '../test/factories.ts';
import { runAdminCommand, USAGE } from './admin-commands.ts';

const DISCORD_ENV = {
  DISCORD_CLIENT_ID: 'client-id',
  DISCORD_CLIENT_SECRET: 'client-secret',
  DISCORD_REDIRECT_URI: 'http://localhost:3000/auth/discord/callback',
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand(ctx.db, argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('admin command line (in process)', () => {
  it('bootstraps the first admin, which ends setup mode', async () => {
    const id = snowflake();
    const r = await run('add', id, 'founder', '--level', 'admin');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain(`Added founder (${id}) as admin.`);
    expect(r.out).toContain('Setup mode is over');
    expect((await findUserById(ctx.db, id))?.is_approved).toBe(1);
  });

  it('lists users, and only pending ones with --pending', async () => {
    const id = snowflake();
    await run('add', id, 'waiting-wendy', '--pending');
    const all = await run('list');
    expect(all.out).toMatch(/DISCORD ID\s+USERNAME\s+LEVEL\s+STATUS/);
    expect(all.out).toContain('founder');
    const pending = await run('list', '--pending');
    expect(pending.out).toContain('waiting-wendy');
    expect(pending.out).not.toContain('founder');
  });

  it('approves a pending user at a level, changes a level, revokes sessions, removes', async () => {
    const id = snowflake();
    await run('add', id, 'pat', '--pending');
    expect((await run('approve', id, '--level', 'moderator')).out).toContain('Approved pat');
    let row = await findUserById(ctx.db, id);
    expect(row).toMatchObject({ is_approved: 1, access_level: 'moderator' });

    expect((await run('set-level', id, 'viewer')).code).toBe(0);
    row = await findUserById(ctx.db, id);
    expect(row?.access_level).toBe('viewer');

    const { token } = await ctx.signIn({ discord_id: snowflake(), username: 'x' }); // unrelated session
    const member = await ctx.signIn({ username: 'sessioned' });
    expect((await run('revoke-sessions', member.userId)).out).toBe(`Ended 1 session(s) of ${member.userId}.`);
    const validate = (t: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(t) });
    expect((await validate(member.token)).statusCode).toBe(401);
    expect((await validate(token)).statusCode).toBe(200);

    expect((await run('remove', id)).out).toContain('Removed pat');
    expect(await findUserById(ctx.db, id)).toBeUndefined();
  });

  it('shows the audit trail with actor cli, before → after', async () => {
    const r = await run('audit', '--limit', '3');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/cli {2}user\.delete {2}pat/);
    expect(r.out).toMatch(/access_level: moderator → viewer|sessions: 1 → 0/);
  });

  it('applies the API rules: validation, duplicates, last admin, the demo identity', async () => {
    expect(await run('add', '123', 'short-id')).toMatchObject({
      code: 1,
      err: expect.stringContaining('17–20 digits'),
    });
    expect(await run('add', snowflake(), 'founder')).toMatchObject({
      code: 1,
      err: expect.stringContaining('already exists'),
    });
    expect(await run('set-level', snowflake(), 'owner')).toMatchObject({
      code: 1,
      err: expect.stringContaining('access_level'),
    });
    expect(await run('approve', snowflake())).toMatchObject({ code: 1, err: 'Error: User not found' });
    const founder = (
      await ctx.db
        .selectFrom('users')
        .select('discord_id')
        .where('username', '=', 'founder')
        .executeTakeFirstOrThrow()
    ).discord_id;
    expect(await run('remove', founder)).toMatchObject({
      code: 1,
      err: expect.stringContaining('last admin'),
    });
    expect(await run('remove', DEMO_USER_ID)).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot be removed'),
    });
  });

  it('explains usage on unknown commands and wrong arguments (exit 2)', async () => {
    expect((await run()).out).toBe(USAGE);
    expect(await run('frobnicate')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "frobnicate"'),
    });
    expect(await run('add', snowflake())).toMatchObject({
      code: 2,
      err: expect.stringContaining('expected: add'),
    });
    expect(await run('list', '--bogus')).toMatchObject({ code: 2 });
  });
});

describe('npm run admin on a fresh data dir (as the README says)', () => {
  const exec = promisify(execFile);
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-cli-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates the database, adds an admin, and the server then sees that admin', async () => {
    const id = '112233445566778899';
    // Discord sign-in configured, as the README asks before adding yourself as admin.
    const env = { ...process.env, DATA_DIR: dataDir, ADMIN_DISCORD_IDS: '', ...DISCORD_ENV };
    const cli = path.join(repoRoot, 'server/src/cli/admin.ts');
    const added = await exec(process.execPath, [cli, 'add', id, 'host-admin', '--level', 'admin'], {
      cwd: repoRoot,
      env,
    });
    expect(added.stdout).toContain(`Added host-admin (${id}) as admin.`);
    const listed = await exec(process.execPath, [cli, 'list'], { cwd: repoRoot, env });
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+host-admin\\s+admin\\s+approved`));

    // The server, started on the same data dir, is out of setup mode and knows the admin.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const db = openDb(config.databaseUrl);
    const app = await buildApp({ config, db, accessCode: TEST_ACCESS_CODE, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/config' })).json().setupMode).toBe(false);
      expect(await findUserById(db, id)).toMatchObject({ access_level: 'admin', is_approved: 1 });
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  // Each step starts a Node process: generous on a busy machine.
  it('without Discord sign-in, refuses to end setup mode unless --force, and says how to get back (issue 32)', async () => {
    const id = '112233445566778800';
    const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-admin-force-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: freshDir, ADMIN_DISCORD_IDS: '' };
    for (const key of Object.keys(DISCORD_ENV)) delete env[key];
    const cli = path.join(repoRoot, 'server/src/cli/admin.ts');
    const refused = await exec(process.execPath, [cli, 'add', id, 'host-admin', '--level', 'admin'], {
      cwd: repoRoot,
      env,
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refused && refused.code).toBe(1);
    expect(refused.stderr).toContain('ends setup mode, but Discord sign-in is not configured');
    expect(refused.stderr).toContain('repeat with --force');
    expect(refused.stderr).toContain(`set-level ${DEMO_USER_ID} admin`);
    const listed = await exec(process.execPath, [cli, 'list'], { cwd: repoRoot, env });
    expect(listed.stdout).not.toContain(id);

    const forced = await exec(
      process.execPath,
      [cli, 'add', id, 'host-admin', '--level', 'admin', '--force'],
      {
        cwd: repoRoot,
        env,
      },
    );
    expect(forced.stdout).toContain('Setup mode is over');
    // The way back the README documents: the access-code identity becomes a real admin.
    const back = await exec(process.execPath, [cli, 'set-level', DEMO_USER_ID, 'admin'], {
      cwd: repoRoot,
      env,
    });
    expect(back.stdout).toContain(`(${DEMO_USER_ID}) as admin`);
    fs.rmSync(freshDir, { recursive: true, force: true });
  });

  it('--help prints the usage (exit 0) without opening a database', async () => {
    const cli = path.join(repoRoot, 'server/src/cli/admin.ts');
    for (const args of [['--help'], ['-h'], ['list', '--help'], []]) {
      const res = await exec(process.execPath, [cli, ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      });
      expect(res.stdout).toContain('Usage: npm run admin -- <command>');
      expect(res.stderr).toBe('');
    }
  });

  it('refuses with a clear message and a non-zero exit', async () => {
    const env = { ...process.env, DATA_DIR: dataDir };
    const cli = path.join(repoRoot, 'server/src/cli/admin.ts');
    const failed = await exec(process.execPath, [cli, 'set-level', '999999999999999999', 'admin'], {
      cwd: repoRoot,
      env,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1, stderr: 'Error: User not found\n' });
  });
});
