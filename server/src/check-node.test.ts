import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const CHECK = './server/src/check-node.mjs';
const MESSAGE = /^Guildhall requires Node 24 or newer; this is Node 20\.\d+\.\d+ \(.+\)\.\n$/;

/** A Node older than 24 on this machine (Debian's), to try the real thing where there is one. */
function oldNode(): string | undefined {
  for (const candidate of [process.env.TEST_OLD_NODE, '/usr/bin/node'].filter(Boolean) as string[]) {
    const r = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (r.status === 0 && Number(r.stdout.split('.')[0]) < 24) return candidate;
  }
  return undefined;
}

// Pretends to be Node 20 before the check runs (process.versions is only read, never trusted further).
const PRETEND_NODE_20 =
  'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.11.0"}})';

describe('a Node older than 24 gets one clear line, from the server and the admin command (issue 32)', () => {
  it('the check runs before any module that needs Node 24 is loaded', () => {
    for (const entry of ['server/src/main.ts', 'server/src/cli/admin.ts']) {
      const r = spawnSync(process.execPath, ['--import', PRETEND_NODE_20, '--import', CHECK, entry, 'list'], {
        cwd: repo,
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(MESSAGE);
      expect(r.stdout).toBe('');
    }
  });

  it('every npm entry point goes through the check first, and the bundle starts with it', () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.admin).toMatch(/^node --import \.\/server\/src\/check-node\.mjs /);
    expect(scripts.dev).toMatch(/^node --import \.\/server\/src\/check-node\.mjs /);
    expect(scripts.start).toMatch(/^node server\/src\/check-node\.mjs && /);
    expect(scripts.build).toMatch(/^node server\/src\/check-node\.mjs && /);
    // main.ts imports the check first and everything else dynamically, so the bundle's main.mjs links
    // nothing a Node 20 lacks (node:sqlite) before the check has run.
    const main = fs.readFileSync(path.join(repo, 'server/src/main.ts'), 'utf8');
    const imports = [...main.matchAll(/^import .*$/gm)].map((m) => m[0]);
    expect(imports[0]).toBe("import './check-node.mjs';");
    expect(imports.slice(1)).toEqual(["import module from 'node:module';"]);
  });

  const old = oldNode();
  it.runIf(old)(`with a real old Node (${old}): npm run admin and the server stop with the one line`, () => {
    for (const args of [
      [CHECK],
      ['--import', CHECK, 'server/src/cli/admin.ts', 'list'],
      ['--import', CHECK, 'server/src/main.ts'],
    ]) {
      const r = spawnSync(old as string, args, { cwd: repo, encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /^Guildhall requires Node 24 or newer; this is Node \d+\.\d+\.\d+ \(.+\)\.\n$/,
      );
    }
  });
});
