import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkCalls,
  checkFile,
  checkText,
  checkTree,
  featureOf,
  importsOf,
  type Layout,
  SERVER_LAYOUT,
  SERVER_TEXT_RULES,
  staleAllowances,
  WEB_LAYOUT,
} from './boundaries.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('feature boundaries (docs/CONVENTIONS.md)', () => {
  it('the server keeps them: features import each other only through index.ts, platform/ imports none', () => {
    expect(checkTree(repoRoot, SERVER_LAYOUT)).toEqual([]);
  });

  it('the web app keeps them: features import each other only through index.ts, ui/api/auth/realtime/layout none', () => {
    expect(checkTree(repoRoot, WEB_LAYOUT)).toEqual([]);
  });
});

describe('the shape inside a feature (issue 46)', () => {
  it('every allow-list entry still needs its allowance (the lists only shrink)', () => {
    expect(staleAllowances(repoRoot, SERVER_LAYOUT)).toEqual([]);
  });

  const rulesOf = (rel: string, src: string) =>
    checkText(rel, src, SERVER_LAYOUT).map((v) => [v.line, v.rule.split(':')[0]]);

  it('SQL outside a repository fails; the same query in repo.ts passes', () => {
    const src = "export const list = (db) =>\n  db.selectFrom('osint_searches').selectAll().execute();\n";
    expect(rulesOf('features/osint/history.ts', src)).toEqual([[2, 'sql-in-repos']]);
    expect(rulesOf('features/osint/repo.ts', src)).toEqual([]);
    expect(rulesOf('features/files/repo-shares.ts', src)).toEqual([]);
    expect(rulesOf('features/osint/x.ts', 'const q = sql`select 1`;')).toEqual([[1, 'sql-in-repos']]);
  });

  it('a service built in routes.ts fails; an action called there and a per-request object pass', () => {
    const src = [
      'export const routes = (ctx) => async (app) => {',
      '  const sender = createArchiveSender(ctx);',
      '  const store = new ChunkStore(ctx);',
      '  app.post("/x", async (req) => {',
      '    const controller = new AbortController();',
      '    const row = await createShare(ctx.db, req.body);',
      '  });',
      '};',
    ].join('\n');
    expect(rulesOf('features/osint/routes.ts', src)).toEqual([
      [2, 'no-construction-in-routes'],
      [3, 'no-construction-in-routes'],
    ]);
    expect(rulesOf('features/osint/reports-routes.ts', src)).toHaveLength(2);
    expect(rulesOf('features/osint/index.ts', src)).toEqual([]);
  });

  it("Date.now(), new Date() and the platform's wall time in a feature fail; a parsed date, the clock and the platform pass", () => {
    const src =
      'const a = Date.now();\nconst b = new Date();\nconst c = new Date(a).toISOString();\nconst d = wallNowIso();\nconst e = isoOn(ctx.clock);\n';
    expect(rulesOf('features/osint/scan.ts', src)).toEqual([
      [1, 'clock'],
      [2, 'clock'],
      [4, 'clock'],
    ]);
    expect(rulesOf('platform/feature.ts', src)).toEqual([]);
    expect(rulesOf('features/osint/scan.test.ts', src)).toEqual([]);
  });

  it('a hand-written retry loop outside the platform fails; retryOptimistic and platform/ pass', () => {
    const loop = [
      'export async function join(ctx) {',
      '  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {',
      '    if (await tryJoin(ctx)) return;',
      '  }',
      '  let tries = 0;',
      '  while (tries++ < 3) await again();',
      '}',
    ].join('\n');
    expect(rulesOf('features/games/pictionary/rooms.ts', loop)).toEqual([
      [2, 'retry-loop'],
      [6, 'retry-loop'],
    ]);
    expect(rulesOf('platform/optimistic.ts', loop)).toEqual([]);
    const helper =
      'return retryOptimistic(MAX_ATTEMPTS, busy, async () => RETRY);\nfor (let i = 0; i < n; i++) {}';
    expect(rulesOf('features/games/pictionary/rooms.ts', helper)).toEqual([]);
  });

  it('the Socket.IO server reached outside platform/realtime fails, even from the platform', () => {
    const src = "gauge.set(app.realtime.io.engine.clientsCount);\nconst path = '/socket.io/';\n";
    expect(rulesOf('platform/observability/metrics.ts', src)).toEqual([[1, 'raw-io']]);
    expect(rulesOf('features/games/room-members.ts', 'hub.io.in(room).fetchSockets()')).toEqual([
      [1, 'raw-io'],
    ]);
    expect(rulesOf('platform/realtime/hub.ts', src)).toEqual([]);
  });

  // A layout whose SQL rule allows one file (the real lists shrink to nothing as features move).
  const planted = 'features/osint/legacy.ts';
  const plantedLayout: Layout = {
    ...SERVER_LAYOUT,
    textRules: SERVER_TEXT_RULES.map((r) =>
      r.name === 'sql-in-repos' ? { ...r, allow: { ...r.allow, [planted]: 'a planted allowance' } } : r,
    ),
  };

  it('an allow-listed file passes its rule, and each allowance gives its reason', () => {
    expect(checkText(planted, "db.selectFrom('x')", plantedLayout)).toEqual([]);
    expect(checkText(planted, "db.selectFrom('x')", SERVER_LAYOUT)).toHaveLength(1);
    for (const rule of SERVER_TEXT_RULES)
      for (const why of Object.values(rule.allow)) expect(why).toMatch(/\w{4}/);
  });

  it('a stale allowance is reported: a planted tree whose allowed file no longer breaks the rule', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-stale-'));
    try {
      fs.mkdirSync(path.dirname(path.join(tmp, 'server/src', planted)), { recursive: true });
      fs.writeFileSync(path.join(tmp, 'server/src', planted), 'export const clean = 1;\n');
      expect(staleAllowances(tmp, plantedLayout)).toContain(`sql-in-repos: server/src/${planted}`);
      fs.writeFileSync(path.join(tmp, 'server/src', planted), "db.selectFrom('x');\n");
      expect(staleAllowances(tmp, plantedLayout)).not.toContain(`sql-in-repos: server/src/${planted}`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the boundary checker', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-boundaries-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('fails on a deliberate import of another feature’s internals, written to a real tree', () => {
    const write = (rel: string, text: string) => {
      const file = path.join(tmp, 'server/src', rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    };
    write('features/files/repo.ts', 'export const listChunks = 1;\n');
    write('features/files/index.ts', "export { listChunks } from './repo.ts';\n");
    write(
      'features/music/service.ts',
      "import { z } from 'zod';\nimport { listChunks } from '../files/repo.ts';\nexport const n = listChunks;\n",
    );
    write(
      'features/music/ok.ts',
      "import { listChunks } from '../files/index.ts';\nexport const m = listChunks;\n",
    );
    expect(checkTree(tmp, SERVER_LAYOUT)).toEqual([
      {
        file: 'server/src/features/music/service.ts',
        line: 2,
        specifier: '../files/repo.ts',
        rule: 'only features/files/index.ts may be imported from outside that feature',
      },
    ]);
  });

  it('fails when a feature imports app.ts (the composition root) or builds a second blob store', () => {
    const write = (rel: string, text: string) => {
      const file = path.join(tmp, 'composition/server/src', rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    };
    write(
      'app.ts',
      "import { createBlobStore } from './platform/blob-store/index.ts';\nexport const store = createBlobStore(config);\n",
    );
    write('platform/blob-store/index.ts', 'export function createBlobStore(config) {\n  return config;\n}\n');
    write(
      'features/music/index.ts',
      [
        "import type { AppDeps } from '../../app.ts';",
        "import { createBlobStore } from '../../platform/blob-store/index.ts';",
        'export const music = (deps: AppDeps) => createBlobStore(deps.config);',
      ].join('\n'),
    );
    write('features/music/x.test.ts', "import { buildApp } from '../../app.ts';\ncreateBlobStore(c);\n");
    expect(checkTree(path.join(tmp, 'composition'), SERVER_LAYOUT)).toEqual([
      {
        file: 'server/src/features/music/index.ts',
        line: 1,
        specifier: '../../app.ts',
        rule: 'no feature imports app.ts (the composition root): use platform/feature.ts',
      },
      {
        file: 'server/src/features/music/index.ts',
        line: 3,
        specifier: 'createBlobStore',
        rule: expect.stringContaining('createBlobStore is called once, in app.ts'),
      },
      {
        file: 'server/src/features/music/x.test.ts',
        line: 1,
        specifier: '../../app.ts',
        rule: 'no feature imports app.ts (the composition root): use platform/feature.ts',
      },
    ]);
    // A second call in the composition root itself is one too many.
    const twice = 'const a = createBlobStore(config);\nconst b = createBlobStore(config);\n';
    expect(checkCalls('app.ts', twice, SERVER_LAYOUT).map((v) => v.line)).toEqual([2]);
  });

  it('fails on a platform import of a feature, even of its index.ts', () => {
    const src =
      "import type { Db } from '../db/index.ts';\nimport { isSetupMode } from '../features/users/index.ts';\n";
    expect(checkFile('platform/effective-level.ts', src, SERVER_LAYOUT)).toEqual([
      {
        file: 'platform/effective-level.ts',
        line: 2,
        specifier: '../features/users/index.ts',
        rule: 'the platform imports no feature',
      },
    ]);
    const web = "import { AccessDenied } from '../features/errors/AccessDenied.tsx';\n";
    expect(checkFile('auth/guards.tsx', web, WEB_LAYOUT)).toHaveLength(1);
  });

  it('catches re-exports, type-only and dynamic imports, and games/ sub-features', () => {
    const src = [
      "export { x } from '../tictactoe/room.ts';",
      "import type { T } from '../../files/tables.ts';",
      "const lazy = () => import('../../files/FilesPage.tsx');",
    ].join('\n');
    const found = checkFile('features/games/pictionary/service.ts', src, WEB_LAYOUT);
    expect(found.map((v) => [v.line, v.specifier])).toEqual([
      [1, '../tictactoe/room.ts'],
      [2, '../../files/tables.ts'],
      [3, '../../files/FilesPage.tsx'],
    ]);
  });

  it('allows the same feature, a group’s shared files, index.ts, and the named exceptions', () => {
    expect(
      checkFile(
        'features/games/tictactoe/Page.tsx',
        "import { LiveBadge } from '../LiveBadge.tsx';",
        WEB_LAYOUT,
      ),
    ).toEqual([]);
    expect(
      checkFile('features/files/shares/routes.ts', "import { listChunks } from '../repo.ts';", SERVER_LAYOUT),
    ).toEqual([]);
    expect(
      checkFile('db/schema.ts', "import type { X } from '../features/music/tables.ts';", SERVER_LAYOUT),
    ).toEqual([]);
    expect(
      checkFile('features/files/x.test.ts', "import { a } from '../users/test-helpers.ts';", SERVER_LAYOUT),
    ).toEqual([]);
    // …but the test kit is for tests only.
    expect(
      checkFile('features/files/service.ts', "import { a } from '../users/test-helpers.ts';", SERVER_LAYOUT),
    ).toHaveLength(1);
  });

  it('names features as the layout says', () => {
    expect(featureOf('features/files/shares/repo.ts', SERVER_LAYOUT)).toBe('files');
    expect(featureOf('features/games/tictactoe/room.ts', SERVER_LAYOUT)).toBe('games/tictactoe');
    expect(featureOf('features/games/MinigamesMenu.tsx', WEB_LAYOUT)).toBe('games');
    expect(featureOf('features/index.ts', SERVER_LAYOUT)).toBeNull();
    expect(importsOf("import a from 'zod';\nimport b from './b.ts';").map((i) => i.line)).toEqual([2]);
  });
});
