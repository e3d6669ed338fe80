/**
 * Shrinks a production node_modules to what the server bundle loads at run time: the packages of
 * `runtime-packages.ts` and everything they depend on. The bundle carries the rest of the code, so the
 * rest is dead weight (≈ 60 MB in the container image). Afterwards every runtime package is imported
 * once from the pruned tree, so a dependency cut by mistake fails here, at build time, not in a guild.
 *
 *   node server/src/deployment/prune-node-modules.ts <node_modules>
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RUNTIME_DATA_PACKAGES, RUNTIME_PACKAGES } from './runtime-packages.ts';

type Manifest = {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** Every package directory in a node_modules tree, nested ones included (`@scope/name` handled). */
export function packageDirs(nodeModules: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const full = path.join(modules, entry);
      const dirs = entry.startsWith('@') ? fs.readdirSync(full).map((e) => path.join(full, e)) : [full];
      for (const dir of dirs) {
        if (!fs.statSync(dir).isDirectory()) continue;
        found.push(dir);
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return found;
}

/** Node's lookup of a bare name from a package directory: its own node_modules, then each ancestor's. */
function resolveFrom(fromDir: string, name: string, base: string): string | null {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === base || dir === path.dirname(dir)) return null;
  }
}

const matches = (name: string) =>
  RUNTIME_PACKAGES.some((p) => (typeof p === 'string' ? p === name : p.test(name))) ||
  RUNTIME_DATA_PACKAGES.includes(name);

/** The package directories to keep: the runtime packages and the closure of their dependencies. */
export function runtimeClosure(nodeModules: string): Set<string> {
  const base = path.dirname(nodeModules);
  const keep = new Set<string>();
  const queue = packageDirs(nodeModules)
    .filter((dir) => path.dirname(dir) === nodeModules || path.dirname(path.dirname(dir)) === nodeModules)
    .filter((dir) => matches(path.relative(nodeModules, dir).split(path.sep).join('/')));
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    if (keep.has(dir)) continue;
    keep.add(dir);
    const m = readManifest(dir);
    const deps = { ...m?.peerDependencies, ...m?.optionalDependencies, ...m?.dependencies };
    for (const name of Object.keys(deps)) {
      const found = resolveFrom(dir, name, base);
      if (found) queue.push(found); // a missing one is optional (another platform's add-on) or an unmet peer
    }
  }
  return keep;
}

export function prune(nodeModules: string): { kept: number; removed: number } {
  const keep = runtimeClosure(nodeModules);
  let removed = 0;
  // Deepest first, so a removed package's nested tree is not visited after it is gone.
  for (const dir of packageDirs(nodeModules).sort((a, b) => b.length - a.length)) {
    if (keep.has(dir) || !fs.existsSync(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  for (const dir of [nodeModules, ...keep]) {
    fs.rmSync(path.join(dir === nodeModules ? dir : path.join(dir, 'node_modules'), '.bin'), {
      recursive: true,
      force: true,
    });
  }
  for (const entry of fs.readdirSync(nodeModules)) {
    const full = path.join(nodeModules, entry);
    if (entry.startsWith('@') && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
  }
  return { kept: keep.size, removed };
}

/** Imports each runtime package by name from beside the tree, as the bundle does. */
function verify(nodeModules: string): void {
  const names = fs
    .readdirSync(nodeModules)
    .flatMap((e) =>
      e.startsWith('@') ? fs.readdirSync(path.join(nodeModules, e)).map((n) => `${e}/${n}`) : [e],
    )
    // Platform add-on packages (@img/sharp-linux-x64, …) are loaded by their parent, not by name.
    .filter((n) => matches(n) && !RUNTIME_DATA_PACKAGES.includes(n))
    .filter((n) => !/-(linux|darwin|win32|freebsd|android|wasm32|libvips)/.test(n));
  const code = `for (const n of ${JSON.stringify(names)}) await import(n);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: path.dirname(nodeModules),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`a runtime package does not load after pruning:\n${run.stderr}`);
  console.log(`verified: ${names.join(', ')}`);
}

if (import.meta.filename === process.argv[1]) {
  const target = path.resolve(process.argv[2] ?? 'node_modules');
  const { kept, removed } = prune(target);
  console.log(`node_modules: kept ${kept} packages, removed ${removed}`);
  verify(target);
}
