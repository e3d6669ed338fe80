import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { CHUNK_SIZE_BYTES } from '@guildhall/common';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { uploadFile } from '../features/files/test-helpers.ts';
import {
  createBlobStore,
  DiscordBlobStore,
  fileThreadGroup,
  kindOf,
  threadGarbageId,
} from '../platform/blob-store/index.ts';
import { bearer, createTestApp, type TestContext } from '../test/app.ts';
import { type FakeDiscordFiles, startFakeDiscordFiles } from '../test/fake-discord-files/server.ts';
import { sharedS3Server } from '../test/files-store.ts';
import type { S3TestServer } from '../test/s3-server.ts';
import { deadline } from '../test/time-scale.ts';
import { runStorageCommand } from './storage-commands.ts';

const ADMIN = path.resolve(import.meta.dirname, 'admin.ts');
let s3: S3TestServer;
let fake: FakeDiscordFiles;
let ctx: TestContext;
let env: Record<string, string>;
let token: string;
const expected = new Map<string, string>(); // file id → SHA-256 of what was uploaded

beforeAll(async () => {
  s3 = await sharedS3Server();
  fake = await startFakeDiscordFiles();
  env = {
    ...s3.env(),
    FILES_STORE: 'local',
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_BOT_TOKEN: fake.botToken,
    FILES_DISCORD_CHANNEL_ID: fake.createChannel(),
  };
  ctx = await createTestApp(env);
  token = (await ctx.signIn()).token;
  // 20 files of mixed sizes: empty, small, exactly one chunk, over a chunk (the code path is the same
  // for every file, so 20 prove what 200 did in a tenth of the time).
  for (let i = 0; i < 20; i++) {
    const size =
      i % 10 === 0
        ? CHUNK_SIZE_BYTES + ((i * 7919) % CHUNK_SIZE_BYTES)
        : i % 10 === 1
          ? 0
          : (i * 2654435761) % 96_000;
    const content = randomBytes(size);
    const item = await uploadFile(ctx.app, token, `file-${i}.bin`, content);
    expected.set(item.id, createHash('sha256').update(content).digest('hex'));
  }
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
  await s3.close();
});

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runStorageCommand(ctx.db, ctx.config, args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

async function chunkIds(): Promise<string[]> {
  return (await ctx.db.selectFrom('file_chunks').select('blob_id').execute()).map((r) => r.blob_id);
}

/** Every blob each store holds (the fake's threads for Discord). */
async function inventory(): Promise<Record<'local' | 's3' | 'discord', string[]>> {
  const store = createBlobStore(ctx.config);
  const all: string[] = [];
  for await (const b of store.list()) all.push(b.id);
  await store.close();
  return {
    local: all.filter((id) => kindOf(id) === 'local'),
    s3: all.filter((id) => kindOf(id) === 's3'),
    discord: fake.blobIdsOf(env.FILES_DISCORD_CHANNEL_ID!).map((id) => `discord:${id}`),
  };
}

/** Every file downloads through the app with the SHA-256 of what was uploaded. */
async function expectAllFilesIntact(): Promise<void> {
  for (const [id, sha] of expected) {
    const res = await ctx.app.inject({ url: `/download/${id}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(sha);
  }
}

async function expectOnlyIn(kind: 'local' | 's3' | 'discord'): Promise<void> {
  const ids = await chunkIds();
  expect(ids.every((id) => kindOf(id) === kind)).toBe(true);
  const held = await inventory();
  // Exactly the chunks the database knows, no copy left over or missing, and nothing in the other stores.
  expect(held[kind].sort()).toEqual([...ids].sort());
  for (const other of ['local', 's3', 'discord'] as const)
    if (other !== kind) expect(held[other]).toEqual([]);
}

test(
  '20 files move local → S3 → Discord → local, verified at every step; a migration killed half way and run again loses and duplicates nothing',
  async () => {
    expect((await run(['verify'])).code).toBe(0);

    const toS3 = await run(['migrate', '--to', 's3']);
    expect(toS3.err).toEqual([]);
    expect(toS3.code).toBe(0);
    // The 2 empty files have no chunk to move.
    expect(toS3.out.at(-2)).toMatch(/^Moved 18 file\(s\) .* to s3, 2 already there, 0 failed\.$/);
    expect(toS3.out.some((l) => l.startsWith('[10/20] '))).toBe(true);
    await expectOnlyIn('s3');

    // A run killed right after Discord made a file's thread, before its id was recorded: what is recorded then
    // is the thread's name (as migrateFile does before asking); the next run finds the thread by it.
    const [first] = [...expected.keys()].sort();
    const discord = new DiscordBlobStore({
      channelId: env.FILES_DISCORD_CHANNEL_ID!,
      botToken: env.DISCORD_BOT_TOKEN!,
      apiUrl: env.DISCORD_API_URL!,
    });
    await ctx.db
      .insertInto('storage_copies')
      .values({
        blob_id: threadGarbageId(fileThreadGroup(first!)),
        file_id: first!,
        created_at: new Date().toISOString(),
      })
      .execute();
    await discord.forFile(first!).put([Buffer.from('a chunk of a killed run')]);
    await discord.close();
    expect(fake.threadsOf(env.FILES_DISCORD_CHANNEL_ID!)).toHaveLength(1);

    // To Discord in a real process, killed (SIGKILL) once about half the files are across.
    const child = spawn(process.execPath, [ADMIN, 'storage', 'migrate', '--to', 'discord'], {
      cwd: ctx.dataDir,
      env: {
        ...process.env,
        ...env,
        DATA_DIR: ctx.dataDir,
        DATABASE_URL: ctx.config.databaseUrl,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        if (/\[10\/20\]/.test(output)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(`the migration ended before half way:\n${output}`)));
    });
    await new Promise((r) => child.once('exit', r));
    const half = await chunkIds();
    expect(half.some((id) => kindOf(id) === 'discord')).toBe(true);
    expect(half.some((id) => kindOf(id) === 's3')).toBe(true);
    await expectAllFilesIntact(); // mid-migration, every file is readable from wherever it is

    const rest = await run(['migrate', '--to', 'discord']);
    expect(rest.code).toBe(0);
    expect(rest.out.at(-2)).toMatch(/^Moved \d+ file\(s\) .* to discord, \d+ already there, 0 failed\.$/);
    await expectOnlyIn('discord');
    expect(await ctx.db.selectFrom('storage_copies').selectAll().execute()).toEqual([]);
    expect((await run(['verify'])).code).toBe(0);

    const back = await run(['migrate', '--to', 'local']);
    expect(back.code).toBe(0);
    await expectOnlyIn('local');
    expect(fake.threadsOf(env.FILES_DISCORD_CHANNEL_ID!)).toEqual([]);
    expect(
      (await ctx.db.selectFrom('files').select('thread_id').where('thread_id', 'is not', null).execute())
        .length,
    ).toBe(0);
    expect((await run(['verify'])).code).toBe(0);
    await expectAllFilesIntact();
  },
  deadline(300_000),
);

test('verify reports a missing chunk', async () => {
  const [row] = await ctx.db.selectFrom('file_chunks').selectAll().limit(1).execute();
  await ctx.db
    .updateTable('file_chunks')
    .set({ blob_id: '0'.repeat(32) })
    .where('blob_id', '=', row!.blob_id)
    .execute();
  const r = await run(['verify']);
  expect(r.code).toBe(1);
  expect(r.err.join('\n')).toMatch(/chunk 0: missing/);
  await ctx.db
    .updateTable('file_chunks')
    .set({ blob_id: row!.blob_id })
    .where('blob_id', '=', '0'.repeat(32))
    .execute();
});
