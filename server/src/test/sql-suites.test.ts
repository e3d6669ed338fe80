import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf } from './boundaries.ts';
import { NOT_SQL, SQL_SUITES } from './sql-suites.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DB = 'server/src/db/index.ts';

/** The repository-relative files `file` imports, transitively (relative imports only). */
function reachesDatabase(file: string, memo = new Map<string, boolean>()): boolean {
  if (file === DB) return true;
  const known = memo.get(file);
  if (known !== undefined) return known;
  memo.set(file, false); // a cycle adds nothing
  const abs = path.join(repoRoot, file);
  const found =
    fs.existsSync(abs) &&
    importsOf(fs.readFileSync(abs, 'utf8')).some(({ specifier }) =>
      reachesDatabase(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)), memo),
    );
  memo.set(file, found);
  return found;
}

function serverTests(): string[] {
  const root = path.join(repoRoot, 'server/src');
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('the PostgreSQL project (test/sql-suites.ts)', () => {
  it('lists every suite that reaches the database, or names why the database does not matter to it', () => {
    const memo = new Map<string, boolean>();
    const unlisted = serverTests().filter(
      (f) => reachesDatabase(f, memo) && !SQL_SUITES.includes(f) && !(f in NOT_SQL),
    );
    expect(unlisted).toEqual([]);
  });

  it('lists only suites that exist, each once', () => {
    const all = [...SQL_SUITES, ...Object.keys(NOT_SQL)];
    expect(all.filter((f) => !fs.existsSync(path.join(repoRoot, f)))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('would catch a new suite that builds an app without being listed', () => {
    expect(reachesDatabase('server/src/test/app.ts')).toBe(true);
    expect(reachesDatabase('server/src/platform/optimistic.test.ts')).toBe(false);
  });
});
