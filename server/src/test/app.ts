import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_USER_ID, isErrorCode, OPS_PATHS, statusOfCode } from '@guildhall/common';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import type { InjectOptions, Response as LightMyRequestResponse } from 'light-my-request';
import pg from 'pg';
import { type App, type AppDeps, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Db, migrateToLatest, openDb, searchPathOf } from '../db/index.ts';
import { allFeatures, type FeatureOptions } from '../features/index.ts';
import { bootstrapUsers } from '../features/users/index.ts';
import { type Feature, realClock } from '../platform/feature.ts';
import { buildSignedInUser, buildUser, type UserOverrides } from './factories.ts';
import { filesStoreEnv } from './files-store.ts';
import {
  databaseFromPgTemplate,
  emptyRunDatabase,
  leaveCopy,
  runSchemaPrefix,
  shareCopy,
  sqliteTemplate,
  testRunId,
} from './template-db.ts';

export const TEST_ACCESS_CODE = 'test-access-code-123';

export type TestContext = {
  app: App;
  db: Db;
  config: Config;
  dataDir: string;
  /** Creates an approved user at a level (or with overrides) and returns a session token for them. */
  signIn: (overrides?: UserOverrides) => Promise<{ token: string; userId: string }>;
  close: () => Promise<void>;
};

export type TestDatabase = 'sqlite' | 'postgres';

export type TestAppOptions = Pick<AppDeps, 'realtime' | 'rateLimit' | 'featureOptions' | 'clock'> & {
  /**
   * Only these features (by name: 'auth', 'files', 'games/pictionary', …), in their usual order: a
   * suite builds what it drives, not the hash threads, sweeps and bots of every other feature.
   */
  features?: string[];
  /**
   * Yield to the event loop after every query the app makes. node:sqlite answers synchronously, so
   * without this one request's read and write run back to back and races never show; with it,
   * concurrent requests interleave between read and write as they do against a networked database.
   */
  racy?: boolean;
  /** A second instance on another context's database (multi-instance tests); that context drops it. */
  sameDatabaseAs?: TestContext;
};

/** The database tests use by default: PostgreSQL when TEST_DB=postgres (and TEST_DATABASE_URL is set). */
export function defaultTestDatabase(): TestDatabase {
  return process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
}

/**
 * A fresh app on a fresh database and data dir: an embedded SQLite file per context, or a fresh
 * schema in TEST_DATABASE_URL's PostgreSQL (dropped on close).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  database: TestDatabase = defaultTestDatabase(),
  /** Platform tuning (e.g. Redis key prefixes so parallel test files on one Redis stay apart) and test modes. */
  options: TestAppOptions = {},
): Promise<TestContext> {
  const { racy, sameDatabaseAs, features: only, ...platform } = options;
  const features = only ? selectFeatures(only, platform.featureOptions) : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-test-'));
  // A copy of the run's migrated template when there is one (test/template-db.ts), else a fresh schema.
  const pgCopy =
    !sameDatabaseAs && !env.DATABASE_URL && database === 'postgres' ? await databaseFromPgTemplate() : null;
  const pgSchema = !sameDatabaseAs && database === 'postgres' && !pgCopy ? await createPgSchema() : null;
  const databaseUrl = sameDatabaseAs?.config.databaseUrl ?? pgCopy?.url ?? pgSchema?.url;
  if (sameDatabaseAs) shareCopy(sameDatabaseAs.config.databaseUrl);
  const sharedCopy = pgCopy?.url ?? (sameDatabaseAs ? sameDatabaseAs.config.databaseUrl : null);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(await filesStoreEnv()), // TEST_FILES_STORE picks the blob store (local disk unless set)
    ...env,
  });
  const template = sqliteTemplate();
  const copied =
    !sameDatabaseAs &&
    !databaseUrl &&
    !env.DATABASE_URL &&
    template &&
    config.databaseUrl.startsWith('sqlite:');
  if (copied) fs.copyFileSync(template, config.databaseUrl.slice('sqlite:'.length));
  // A copy's first app takes its connections from the copy's pool, warm from the tests before (a second
  // instance on it opens its own, as another process would).
  const db = openDb(config.databaseUrl, pgCopy?.pool);
  if (!sameDatabaseAs) {
    if (!copied && !pgCopy) await migrateToLatest(db, pgSchema?.schema ?? searchPathOf(config.databaseUrl));
    await bootstrapUsers(db, config.discord.adminDiscordIds, platform.clock ?? realClock);
  }
  const appDb = racy ? db.withPlugin(new YieldAfterEveryQuery()) : db;
  const app = await buildApp({
    config,
    db: appDb,
    accessCode: TEST_ACCESS_CODE,
    logger: false,
    ...platform,
    ...(features ? { features } : {}),
  });
  await app.ready();
  let seq = 0;
  return {
    app,
    db: appDb,
    config,
    dataDir,
    async signIn(overrides = {}) {
      seq += 1;
      return buildSignedInUser(db, { username: `member${seq}`, ...overrides });
    },
    async close() {
      await app.close();
      await db.destroy();
      if (sharedCopy) leaveCopy(sharedCopy); // once its last app closed, another test may empty and reuse it
      await pgSchema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function selectFeatures(names: string[], options: FeatureOptions | undefined): Feature[] {
  const all = allFeatures(options);
  const unknown = names.filter((n) => !all.some((f) => f.name === n));
  if (unknown.length > 0) throw new Error(`unknown features ${unknown.join(', ')}`);
  return all.filter((f) => names.includes(f.name));
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
 * An app on which every route answers, for suites that call them all (the authorization matrix, the
 * bad-input sweep): a built web app to serve, Discord OAuth configured (never contacted) and setup mode
 * left, so the access-code identity acts at its stored level.
 */
/** An error answer a sweep saw: the route asked, the status, and the envelope's code. */
export type ErrorAnswer = { request: string; status: number; code: unknown; json: boolean };

function errorAnswerOf(opts: unknown, res: LightMyRequestResponse): ErrorAnswer {
  const o = (typeof opts === 'string' ? { url: opts } : opts) as {
    method?: string;
    url?: string;
    path?: string;
  };
  let code: unknown;
  let json = false;
  try {
    const body = JSON.parse(res.body) as { success?: unknown; code?: unknown };
    json = body.success === false;
    code = body.code;
  } catch {
    // not JSON (a HEAD answer has no body)
  }
  return { request: `${o.method ?? 'GET'} ${o.url ?? o.path ?? ''}`, status: res.statusCode, code, json };
}

/**
 * Error answers whose code is not the catalogue's for their status (common/src/error-codes.ts): every
 * error envelope carries a code, and a code always comes with one status.
 */
export function codeMismatches(answers: ErrorAnswer[]): ErrorAnswer[] {
  return answers.filter((a) => a.json && !(isErrorCode(a.code) && statusOfCode(a.code) === a.status));
}

export async function createEveryRouteApp(): Promise<TestContext & { errorAnswers: ErrorAnswer[] }> {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>probe</title>');
  const ctx = await createTestApp({
    WEB_DIST_DIR: webDist,
    DISCORD_CLIENT_ID: '123456789012345678',
    DISCORD_CLIENT_SECRET: 'probe-secret',
    DISCORD_REDIRECT_URI: 'http://localhost/auth/discord/callback',
    DISCORD_API_URL: 'http://127.0.0.1:9/api',
  });
  await leaveSetupMode(ctx);
  const errorAnswers: ErrorAnswer[] = [];
  // Every answer the sweeps get is recorded, so they can check each error's code against the catalogue.
  const inject = ctx.app.inject.bind(ctx.app);
  ctx.app.inject = ((opts?: InjectOptions | string) => {
    if (opts === undefined) return inject();
    return inject(opts).then((res) => {
      if (res.statusCode >= 400) errorAnswers.push(errorAnswerOf(opts, res));
      return res;
    });
  }) as App['inject'];
  return {
    ...ctx,
    errorAnswers,
    async close() {
      await ctx.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    },
  };
}

/** Leaves setup mode by adding a real admin, so the demo identity acts at its stored level. */
export async function leaveSetupMode(ctx: TestContext): Promise<void> {
  await buildUser(ctx.db, { access_level: 'admin', username: 'bootstrap-admin' });
}

/**
 * /readyz answers 503 "not ready" by design when a probe misses its 1.5 s limit, which hundreds of
 * requests at once on PostgreSQL can cause on a slow machine. That answer came from its handler: the
 * tests that send every route at once count it as an answer, not as a refusal or a crash.
 */
export function isNotReadyAnswer(url: string, res: { statusCode: number; body: string }): boolean {
  return res.statusCode === 503 && url === OPS_PATHS.readiness && JSON.parse(res.body).status === 'not ready';
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export { DEMO_USER_ID };

/**
 * A throwaway schema in the test PostgreSQL; the URL selects it through search_path. Under Vitest's global
 * setup it is named for the run, made in an empty database of its own (test/template-db.ts), and dropped
 * with the run's databases when the run ends, not by `drop()`: the server's migrator (Kysely's) lists every
 * schema and table of its database and asks has_schema_privilege and pg_get_serial_sequence of each by
 * name, which failed with "schema … does not exist" and "relation … does not exist" when another suite
 * dropped its schema or restored its tables in between (a starting server, twice in CI runs).
 */
export async function createPgSchema(): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const base = (await emptyRunDatabase()) ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const run = testRunId();
  const schema = `${run ? runSchemaPrefix(run) : 'gh_test_'}${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      if (run) return; // the run's teardown drops it
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
