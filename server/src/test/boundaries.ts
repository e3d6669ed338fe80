import fs from 'node:fs';
import path from 'node:path';

/**
 * The feature-boundary rule (docs/CONVENTIONS.md), checked over the source text of the server and the
 * web app:
 *
 * - a feature is a folder `features/<name>/`, or `features/<group>/<name>/` for a group folder such as
 *   `games/` (the group's own top-level files are shared by its features);
 * - code outside a feature may import only that feature's `index.ts` (its public surface);
 * - the platform (server `platform/`; web `ui/`, `api/`, `auth/`, `realtime/`, `layout/`) imports no
 *   feature at all;
 * - a few named exceptions, each with its reason, in `Layout.allow`.
 */

export type Layout = {
  /** The source root, relative to the repository (e.g. `server/src`). */
  root: string;
  /** Folders under the root that are platform: they may not import any feature. */
  platform: string[];
  /** Folders under `features/` that group features (`games/tictactoe`), rather than being one. */
  groups: string[];
  /** Imports into a feature's internals that are allowed anyway, with the reason. */
  allow: { reason: string; test: (from: string, to: string) => boolean }[];
  /** Root-relative files no feature may import (the composition root: features get a FeatureContext). */
  rootOnly?: string[];
  /**
   * Factories of a process-wide service: called in product code only in the named files, once each
   * (`createBlobStore` in app.ts, so a process has one blob store and one Discord rate-limit queue).
   */
  singleCalls?: { name: string; in: string[]; reason: string }[];
  /** Rules on the source text of product files (issue 46), each with its allow-list. */
  textRules?: TextRule[];
};

/**
 * A pattern product code may use only where a rule allows it: `applies` says which root-relative files
 * the rule covers, `allow` names files that may still use it, each with its reason. An allow-list entry
 * whose file no longer uses the pattern is itself reported, so the lists only shrink.
 */
export type TextRule = {
  name: string;
  applies: (rel: string) => boolean;
  pattern: RegExp;
  /** What to do instead: the violation's message. */
  instead: string;
  allow: Record<string, string>;
};

const isRepoFile = (rel: string) => /(^|\/)repo[\w-]*\.ts$/.test(rel);
const inFeatures = (rel: string) => rel.startsWith('features/');

/** Music's audio engine is being rewritten (its players, ffmpeg, packet switch): its clock moves with it. */
const MUSIC_ENGINE = "the audio engine's real-time playback (issue 46 leaves it to the engine's rewrite)";

export const SERVER_TEXT_RULES: TextRule[] = [
  {
    name: 'sql-in-repos',
    applies: (rel) => inFeatures(rel) && !isRepoFile(rel),
    pattern: /\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`|\bsql</g,
    instead:
      "query builders only in a feature's repo*.ts: put the query in the repository and call it from the service",
    allow: {},
  },
  {
    name: 'no-construction-in-routes',
    applies: (rel) => inFeatures(rel) && /(^|\/)[\w-]*routes[\w-]*\.ts$/.test(rel),
    pattern:
      /(?:const|let)\s+\w+\s*=\s*(?:new\s+(?!(?:AbortController|Error|URL|URLSearchParams|Set|Map|Date|Headers)\b)[A-Z]\w*|create[A-Z]\w*)\(/g,
    instead: "build services once in the feature's setup (index.ts) and hand them to its routes",
    allow: {},
  },
  {
    name: 'clock',
    applies: inFeatures,
    pattern: /\bDate\.now\(|\bnew Date\(\s*\)|\bwall(?:NowIso|IsoIn)\(/g,
    instead: "read time from the feature's clock (ctx.clock, platform/feature.ts), so tests move time",
    allow: {
      'features/admin/repo.ts': 'audit ids sort by wall time across processes (server and CLI)',
      'features/admin/service.ts':
        "audit entries are dated by wall time like their ids: the server's and the admin CLI's entries interleave",
      'features/files/fair-uploads.ts':
        "an upload body's stall watchdog: the socket's real progress on one Node timer per body (its tests run under vi.useFakeTimers)",
      'features/files/download-limits.ts':
        "a download's stalled-reader watchdog: the socket's real progress on one Node timer per response",
      'features/music/player.ts': MUSIC_ENGINE,
      'features/music/bot.ts':
        "the Discord gateway and voice connection: down-since stamps and the rejoin pacing run on real time beside discord.js's own timers",
      'features/music/service.ts':
        "the engine's health caches and the reconnecting seconds read bot.ts's real-time stamps (moves with the engine's rewrite)",
      'features/music/present.ts':
        "serverTime pairs with player.ts's positions, which run on real audio time",
      'features/music/sources/youtube.ts':
        "a stream URL's reuse deadline, compared by player.ts on real time",
      'features/music/sources/library.ts':
        "a library URL's reuse deadline, compared by player.ts on real time",
    },
  },
  {
    name: 'retry-loop',
    applies: (rel) => !rel.startsWith('platform/'),
    pattern:
      /\bfor\s*\(\s*let\s+(?:attempts?|tries|retry|retries)\b|\bwhile\s*\([^)\n]*\b(?:attempts?|tries|retries)\b/g,
    instead:
      "an optimistic retry goes through retryOptimistic / retryOptimisticOr (platform/optimistic.ts, with rollbackOn for a lost write); a wait between tries through the platform's clock (waitOn)",
    allow: {},
  },
  {
    name: 'raw-io',
    applies: (rel) => !rel.startsWith('platform/realtime/'),
    pattern: /\w\.io\.(?:engine|of|in|to|emit|sockets|fetchSockets|use|on|except)\b/g,
    instead: 'reach sockets through the realtime hub (platform/realtime), never the Socket.IO server',
    allow: {},
  },
];

const isTestFile = (p: string) => /\.test\.tsx?$|(^|\/)test-helpers\.ts$/.test(p);

export const SERVER_LAYOUT: Layout = {
  root: 'server/src',
  platform: ['platform'],
  groups: ['games'],
  allow: [
    {
      reason: 'db/schema.ts composes every feature table type into Database (type-only, one line each)',
      test: (from, to) => from === 'db/schema.ts' && path.posix.basename(to) === 'tables.ts',
    },
    {
      reason:
        "config.ts assembles every feature's config module (its variables and its slice) into one schema",
      test: (from, to) => from === 'config.ts' && path.posix.basename(to) === 'config.ts',
    },
    {
      reason: "a feature's test-helpers.ts is its test kit, for other features' tests only",
      test: (from, to) => isTestFile(from) && path.posix.basename(to) === 'test-helpers.ts',
    },
    {
      reason: 'a fake outside service (test/fake-*.ts) is built from the feature data it imitates',
      test: (from) => /^test\/fake-[\w-]+\.ts$/.test(from),
    },
  ],
  rootOnly: ['app.ts'],
  textRules: SERVER_TEXT_RULES,
  singleCalls: [
    {
      name: 'createBlobStore',
      // The admin CLI is its own process: each command opens the store once (cli/, backup/).
      in: ['app.ts', 'cli/storage-commands.ts', 'cli/backup-commands.ts', 'backup/restore.ts'],
      reason: 'one blob store per process: features get it from the FeatureContext',
    },
  ],
};

export const WEB_LAYOUT: Layout = {
  root: 'web/src',
  platform: ['ui', 'api', 'auth', 'realtime', 'layout'],
  groups: ['games'],
  allow: [
    {
      reason: 'the router is the composition root: it lazy-loads each page file on its own',
      test: (from) => from === 'router.tsx',
    },
  ],
};

export type Violation = { file: string; line: number; specifier: string; rule: string };

/** The feature a root-relative path belongs to (`files`, `games/tictactoe`), or null outside features/. */
export function featureOf(rel: string, layout: Layout): string | null {
  const parts = rel.split('/');
  if (parts[0] !== 'features' || parts.length < 3) return null; // features/index.ts is the registry
  const first = parts[1] ?? '';
  if (layout.groups.includes(first) && parts.length >= 4) return `${first}/${parts[2]}`;
  return first;
}

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every relative import specifier of a source text, with its line. */
export function importsOf(source: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  for (const m of source.matchAll(IMPORT_RE)) {
    const specifier = m[1] ?? m[2];
    if (!specifier?.startsWith('.')) continue;
    const line = source.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0);
    found.push({ specifier, line });
  }
  return found;
}

/** The violations of one file (`rel` relative to the layout's root). */
export function checkFile(rel: string, source: string, layout: Layout): Violation[] {
  const violations: Violation[] = [];
  const from = featureOf(rel, layout);
  const fromPlatform = layout.platform.some((p) => rel.startsWith(`${p}/`));
  const fromGroup = from?.includes('/') ? from.split('/')[0] : undefined;
  for (const { specifier, line } of importsOf(source)) {
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(rel), specifier));
    if (rel.startsWith('features/') && layout.rootOnly?.includes(to)) {
      violations.push({
        file: rel,
        line,
        specifier,
        rule: `no feature imports ${to} (the composition root): use platform/feature.ts`,
      });
      continue;
    }
    const target = featureOf(to, layout);
    if (!target && !(to === 'features/index.ts' && fromPlatform)) continue;
    if (target === from) continue;
    if (fromPlatform) {
      if (layout.allow.some((a) => a.test(rel, to))) continue;
      violations.push({ file: rel, line, specifier, rule: 'the platform imports no feature' });
      continue;
    }
    if (to === `features/${target}/index.ts` || to === `features/${target}/index.tsx`) continue;
    if (fromGroup && target === fromGroup) continue; // a group's shared files, e.g. games/LiveBadge.tsx
    if (layout.allow.some((a) => a.test(rel, to))) continue;
    violations.push({
      file: rel,
      line,
      specifier,
      rule: `only features/${target}/index.ts may be imported from outside that feature`,
    });
  }
  return violations;
}

const isProductFile = (rel: string) => !isTestFile(rel) && !rel.startsWith('test/');

/**
 * The calls of each `singleCalls` factory in one product file (not its definition, not tests): each
 * must be in a named file, at most once there.
 */
export function checkCalls(rel: string, source: string, layout: Layout): Violation[] {
  if (!isProductFile(rel)) return [];
  const violations: Violation[] = [];
  for (const single of layout.singleCalls ?? []) {
    const re = new RegExp(`(?<!function\\s+)\\b${single.name}\\s*\\(`, 'g');
    const lines = [...source.matchAll(re)].map((m) => source.slice(0, m.index).split('\n').length);
    const allowed = single.in.includes(rel) ? 1 : 0;
    for (const line of lines.slice(allowed)) {
      violations.push({
        file: rel,
        line,
        specifier: single.name,
        rule: `${single.name} is called once, in ${single.in.join(' / ')}: ${single.reason}`,
      });
    }
  }
  return violations;
}

/** The uses of each text rule's pattern in one product file that its allow-list does not cover. */
export function checkText(rel: string, source: string, layout: Layout): Violation[] {
  if (!isProductFile(rel)) return [];
  const violations: Violation[] = [];
  for (const rule of layout.textRules ?? []) {
    if (!rule.applies(rel) || rule.allow[rel] !== undefined) continue;
    for (const m of source.matchAll(rule.pattern)) {
      violations.push({
        file: rel,
        line: source.slice(0, m.index).split('\n').length,
        specifier: m[0],
        rule: `${rule.name}: ${rule.instead}`,
      });
    }
  }
  return violations;
}

/** Allow-list entries whose file is gone or no longer uses the pattern: the list must shrink with the code. */
export function staleAllowances(repoRoot: string, layout: Layout): string[] {
  const stale: string[] = [];
  for (const rule of layout.textRules ?? []) {
    for (const rel of Object.keys(rule.allow)) {
      const file = path.join(repoRoot, layout.root, rel);
      const source = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (![...source.matchAll(rule.pattern)].length) stale.push(`${rule.name}: ${layout.root}/${rel}`);
    }
  }
  return stale;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    if (!e.isFile() || !/\.tsx?$/.test(e.name)) return [];
    return [path.join(e.parentPath, e.name)];
  });
}

/** Checks every .ts/.tsx file under the layout's root in the repository at `repoRoot`. */
export function checkTree(repoRoot: string, layout: Layout): Violation[] {
  const root = path.join(repoRoot, layout.root);
  return sourceFiles(root).flatMap((file) => {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const source = fs.readFileSync(file, 'utf8');
    return [
      ...checkFile(rel, source, layout),
      ...checkCalls(rel, source, layout),
      ...checkText(rel, source, layout),
    ].map((v) => ({
      ...v,
      file: `${layout.root}/${v.file}`,
    }));
  });
}
