import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { migrateToLatest, openDb } from '../../db/index.ts';
import type { RealtimeOptions } from '../../platform/realtime/index.ts';
import { defaultTestDatabase, TEST_ACCESS_CODE, type TestContext } from '../../test/app.ts';
import { buildSignedInUser } from '../../test/factories.ts';

export type GameTestOptions = {
  /**
   * Yield to the event loop after every query. node:sqlite answers synchronously, so without this one
   * request's read and write run back to back and races never show; with it, concurrent requests
   * interleave between read and write as they do against a networked database.
   */
  racy?: boolean;
  env?: Record<string, string>;
  realtime?: RealtimeOptions;
  /** Another instance on the same database (multi-instance tests); the first one drops it. */
  sameDatabaseAs?: TestContext;
};

/**
 * Like createTestApp, for the games suites: a fresh SQLite file, or in the `postgres` Vitest project a
 * fresh database on the TEST_DATABASE_URL server, so the same tests prove the rules on both. It adds what
 * these suites need: racy queries, realtime options and a second instance on the same database.
 */
export async function createGameTestApp(opts: GameTestOptions = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-games-'));
  const database = opts.sameDatabaseAs
    ? { url: opts.sameDatabaseAs.config.databaseUrl, drop: async () => {} }
    : await freshDatabase(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    ...opts.env,
  });
  const baseDb = openDb(config.databaseUrl);
  try {
    await migrateToLatest(baseDb);
  } catch (e) {
    await baseDb.destroy();
    await database.drop();
    throw e;
  }
  const db = opts.racy ? baseDb.withPlugin(new YieldAfterEveryQuery()) : baseDb;
  const app = await buildApp({
    config,
    db,
    accessCode: TEST_ACCESS_CODE,
    logger: false,
    realtime: opts.realtime,
  });
  await app.ready();
  let seq = 0;
  return {
    app,
    db,
    config,
    dataDir,
    async signIn(overrides = {}) {
      seq += 1;
      return buildSignedInUser(baseDb, { username: `player${seq}`, ...overrides });
    },
    async close() {
      await app.close();
      await baseDb.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

class YieldAfterEveryQuery implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    await new Promise((resolve) => setImmediate(resolve));
    return args.result;
  }
}

/**
 * A database of its own per test app: a new PostgreSQL database when TEST_DATABASE_URL is set (schemas
 * would not do: Kysely's migrator looks for its tables in every schema of a database), else SQLite.
 */
async function freshDatabase(dataDir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || defaultTestDatabase() !== 'postgres') {
    return { url: `sqlite:${path.join(dataDir, 'guildhall.db')}`, drop: async () => {} };
  }
  const name = `guildhall_games_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // pg's pool.end() can resolve a moment before its backends are gone, so retry while they linger.
  const drop = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await admin(`drop database if exists ${name}`);
      } catch (e) {
        if ((e as { code?: string }).code !== '55006' || attempt >= 50) throw e;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  return { url: url.toString(), drop };
}
